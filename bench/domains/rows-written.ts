import type { Pool } from 'pg';
import { sleep } from '../lib/stats';
import { createDomain, metricSum, waitForProbes } from './service';

/** Rows inserted and updated per table so far in this database, from PostgreSQL's statistics. */
async function tableWrites(pg: Pool): Promise<Map<string, { inserted: number; updated: number }>> {
  // Other backends report their counts at most ~1 s after their transactions end.
  await sleep(1_500);
  const { rows } = await pg.query<{ relname: string; ins: string; upd: string }>(
    'select relname, n_tup_ins as ins, n_tup_upd as upd from pg_stat_user_tables',
  );
  return new Map(rows.map((r) => [r.relname, { inserted: Number(r.ins), updated: Number(r.upd) }]));
}

export interface RowsPerCreation {
  inserted: number;
  updated: number;
  /** Per table, rows inserted + updated per creation, largest first. */
  byTable: string;
}

/**
 * What `count` creations cost in rows, their first monitor probes included: each table's inserted
 * and updated rows between before the creations and after every new domain has been probed once.
 * Measured on a database nothing else writes to (before any other load of the benchmark).
 */
export async function rowsPerCreation(
  pg: Pool,
  urls: { api: string; node: string },
  apiKey: string,
  count: number,
): Promise<RowsPerCreation> {
  const probesBefore = await probesDone(urls.node);
  const before = await tableWrites(pg);
  for (let i = 0; i < count; i += 8) {
    const batch = Array.from({ length: Math.min(8, count - i) }, (_, k) => `rows${i + k}.bench-customer.com`);
    await Promise.all(batch.map((hostname) => createDomain(urls.api, apiKey, hostname)));
  }
  await waitForProbes(urls.node, probesBefore + count, 60_000);
  const after = await tableWrites(pg);
  const per = [...after]
    .map(([table, a]) => {
      const b = before.get(table) ?? { inserted: 0, updated: 0 };
      return { table, inserted: (a.inserted - b.inserted) / count, updated: (a.updated - b.updated) / count };
    })
    // Lease renewals run on a clock (each node renews its shards every few seconds), not per creation.
    .filter((t) => t.table !== 'shard_leases' && t.inserted + t.updated > 0)
    .sort((x, y) => y.inserted + y.updated - (x.inserted + x.updated));
  const sum = (f: (t: (typeof per)[number]) => number) => per.reduce((s, t) => s + f(t), 0);
  return {
    inserted: sum((t) => t.inserted),
    updated: sum((t) => t.updated),
    byTable: per.map((t) => `${t.table} ${fmt(t.inserted)} inserted + ${fmt(t.updated)} updated`).join('; '),
  };
}

const fmt = (n: number) => String(Math.round(n * 100) / 100);

async function probesDone(nodeUrl: string): Promise<number> {
  return metricSum(await (await fetch(`${nodeUrl}/metrics`)).text(), 'monitor_probes_total');
}
