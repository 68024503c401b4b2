import DataLoader from 'dataloader';

/** Most keys one batched statement reads. */
const MAX_BATCH = 256;

/**
 * Reads asked for in the same tick go to the database as one statement (DataLoader batching): under
 * load many callers want a row at once, and a round trip is mostly syscalls. Never cached: each read
 * sees the table as it is now, so a write is visible to the next read.
 */
export function batchedReads<K, V>(readAll: (keys: readonly K[]) => Promise<V[]>): DataLoader<K, V> {
  return new DataLoader(readAll, { cache: false, maxBatchSize: MAX_BATCH });
}
