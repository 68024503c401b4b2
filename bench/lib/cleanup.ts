import { connect } from 'nats';
import { NATS_URL, onServer } from './database';

/** A benchmark never runs this long: anything of ours older is left over from a killed run. */
const STALE_MS = 15 * 60_000;
const BENCH_STREAM = /_b[0-9a-f]{10}$/;
const BENCH_DATABASE = /^bench_([0-9a-z]+)_[0-9a-f]{8}$/;

/**
 * Deletes the JetStream streams made under a run's subject prefix (the membership KV bucket,
 * `KV_cluster_members_<prefix>`; the event stream, `EVENTS_<prefix>`; any other `*_<prefix>`),
 * or, without a prefix, every benchmark stream older than STALE_MS.
 */
export async function deleteStreams(prefix?: string): Promise<void> {
  const nc = await connect({ servers: NATS_URL, name: 'bench-cleanup' });
  try {
    const jsm = await nc.jetstreamManager();
    const stale = Date.now() - STALE_MS;
    for await (const info of jsm.streams.list()) {
      const name = info.config.name;
      const ours = prefix ? name.endsWith(`_${prefix}`) : BENCH_STREAM.test(name) && Date.parse(info.created) < stale;
      if (ours) await jsm.streams.delete(name).catch(() => undefined);
    }
  } finally {
    await nc.close();
  }
}

/** Drops benchmark databases older than STALE_MS (their names carry their creation time). */
export async function dropStaleDatabases(): Promise<void> {
  await onServer(async (c) => {
    const { rows } = await c.query<{ datname: string }>("select datname from pg_database where datname like 'bench_%'");
    for (const { datname } of rows) {
      const created = BENCH_DATABASE.exec(datname)?.[1];
      if (created && parseInt(created, 36) < Date.now() - STALE_MS) {
        await c.query(`drop database if exists ${datname} with (force)`);
      }
    }
  });
}
