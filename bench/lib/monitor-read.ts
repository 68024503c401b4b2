import { performance } from 'node:perf_hooks';
import { shardDomains } from '@app/domains';
import type { SqlExecutor } from '@app/persistence';
import type { Pool, PoolClient } from 'pg';
import { metricSum } from '../domains/service';
import { sleep } from './stats';

/**
 * Shards whose domains one statement loads when a node takes shards on (LOAD_CHUNK in
 * libs/domains/src/node/domain-monitor.service.ts, not exported).
 */
export const MONITOR_LOAD_CHUNK = 256;

/** The service's SqlExecutor over one pg connection: `?` placeholders, parameters bound (pg's extended protocol). */
function executor(client: PoolClient): SqlExecutor {
  const query = async <T>(sql: string, params: unknown[] = []) => {
    let n = 0;
    return (
      await client.query(
        sql.replace(/\?/g, () => `$${++n}`),
        params,
      )
    ).rows as T[];
  };
  const db: SqlExecutor = {
    query,
    bound: query,
    prepared: () => Promise.reject(new Error('not used by the monitor statements timed here')),
    transaction: (work) => work(db),
  };
  return db;
}

async function timed<T>(pg: Pool, work: (db: SqlExecutor) => Promise<T[]>): Promise<{ ms: number; rows: number }> {
  const client = await pg.connect();
  try {
    const db = executor(client);
    const started = performance.now();
    const rows = await work(db);
    return { ms: performance.now() - started, rows: rows.length };
  } finally {
    client.release();
  }
}

/**
 * The monitor's load of the live domains of `shards` when a node takes them on (shardDomains, in
 * statements of MONITOR_LOAD_CHUNK shards one after the other, as the node runs them), over one pg
 * connection. The node reads the shards' watermarks beside each statement; that small read is not
 * timed here.
 */
export function timeShardLoad(pg: Pool, shards: number[]): Promise<{ ms: number; rows: number }> {
  return timed(pg, async (db) => {
    const all: unknown[] = [];
    for (let i = 0; i < shards.length; i += MONITOR_LOAD_CHUNK) {
      all.push(...(await shardDomains(db, shards.slice(i, i + MONITOR_LOAD_CHUNK))));
    }
    return all;
  });
}

/** The median (by time) of `n` runs of `timing`, one after the other. */
export async function medianOf(
  n: number,
  timing: () => Promise<{ ms: number; rows: number }>,
): Promise<{ ms: number; rows: number }> {
  const runs = [];
  for (let i = 0; i < n; i++) runs.push(await timing());
  runs.sort((a, b) => a.ms - b.ms);
  return runs[Math.floor(n / 2)];
}

export interface MonitorHeld {
  samples: number;
  meanInFlight: number;
  meanWaiting: number;
  /** Share of the samples with no taken domain waiting (nothing more due, or takes not keeping up). */
  queueEmpty: number;
}

/**
 * The monitor's own gauges (probes in flight; domains taken, waiting for a probe slot:
 * `monitor_claimed_waiting`, a name kept from the claim), read every 500 ms until `until`.
 */
export async function sampleMonitorGauges(metricsUrl: string, until: number): Promise<MonitorHeld> {
  const inFlight: number[] = [];
  const waiting: number[] = [];
  while (Date.now() < until) {
    const text = await (await fetch(metricsUrl)).text();
    inFlight.push(metricSum(text, 'monitor_probes_in_flight'));
    waiting.push(metricSum(text, 'monitor_claimed_waiting'));
    await sleep(500);
  }
  const mean = (values: number[]) => values.reduce((a, b) => a + b, 0) / Math.max(1, values.length);
  return {
    samples: inFlight.length,
    meanInFlight: mean(inFlight),
    meanWaiting: mean(waiting),
    queueEmpty: waiting.filter((n) => n === 0).length / Math.max(1, waiting.length),
  };
}
