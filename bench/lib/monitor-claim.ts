import { performance } from 'node:perf_hooks';
import { claimDueDomains } from '@app/domains';
import type { SqlExecutor } from '@app/persistence';
import type { Pool } from 'pg';
import { metricSum } from '../domains/service';
import { sleep } from './stats';

/** The monitor's own claim statement (claimDueDomains) of `limit` rows over one pg connection, rolled back. */
export async function timeClaim(
  pg: Pool,
  shards: number[],
  intervalSeconds: number,
  limit: number,
): Promise<{ ms: number; rows: number }> {
  const client = await pg.connect();
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
    prepared: () => Promise.reject(new Error('not used: the claim runs in the transaction below')),
    transaction: (work) => work(db),
  };
  try {
    await client.query('begin');
    const started = performance.now();
    const { due } = await claimDueDomains(db, shards, intervalSeconds, limit);
    return { ms: performance.now() - started, rows: due.length };
  } finally {
    await client.query('rollback');
    client.release();
  }
}

export interface MonitorHeld {
  samples: number;
  meanInFlight: number;
  meanWaiting: number;
  /** Share of the samples with no claimed domain waiting: probes below the cap wait on a claim. */
  queueEmpty: number;
}

/** The monitor's own gauges (probes in flight, claimed domains waiting), read every 500 ms until `until`. */
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
