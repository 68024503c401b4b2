/** Virtual shards, fixed for the life of a cluster (about 10 per node even at 400 nodes). */
export const SHARD_COUNT = 4096;

/**
 * cyrb53: a fast, well-distributed non-cryptographic 53-bit string hash (public domain,
 * bryc/code). Ten lines do not justify a native dependency, and it runs in ~50 ns per id.
 */
export function hash53(text: string, seed = 0): number {
  let h1 = 0xdeadbeef ^ seed;
  let h2 = 0x41c6ce57 ^ seed;
  for (let i = 0; i < text.length; i++) {
    const ch = text.charCodeAt(i);
    h1 = Math.imul(h1 ^ ch, 2654435761);
    h2 = Math.imul(h2 ^ ch, 1597334677);
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507);
  h1 ^= Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507);
  h2 ^= Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  return 4294967296 * (2097151 & h2) + (h1 >>> 0);
}

/** The shard of an actor id. */
export function shardOf(id: string): number {
  return hash53(id) % SHARD_COUNT;
}

/** The subject a command for an actor goes to; the shard's owner answers it. */
export function actorSubject(kind: string, shard: number): string {
  return `actors.${kind}.${shard}`;
}

/** What a node subscribes to for one shard: every kind at once. */
export function shardSubject(shard: number): string {
  return `actors.*.${shard}`;
}
