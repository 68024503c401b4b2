import autocannon from 'autocannon';
import { inspect } from 'node:util';
import type { Pool } from 'pg';
import { built } from '../lib/paths';
import { processCpuSeconds } from '../lib/process-cpu';
import { Child, startScript } from '../lib/processes';
import { percentile } from '../lib/stats';
import { cpuSeconds, databaseCpu, databaseCpuDelta } from './service';

export const CONNECTIONS = Number(process.env.BENCH_HTTP_CONNECTIONS ?? 32);

/** One autocannon run against one target. */
export interface HttpRun {
  ok: number;
  non2xx: number;
  errors: number;
  seconds: number;
  /** Of every 2xx answer, in ms (autocannon's own histograms keep whole milliseconds only). */
  latencies: number[];
  statuses: Record<string, number>;
}

export interface HttpSummary extends Omit<HttpRun, 'latencies'> {
  perSecond: number;
  p50: number;
  p99: number;
}

/** `requests` are autocannon's (a setupRequest per request picks the path or body). */
export function cannon(url: string, seconds: number, requests: autocannon.Request[]): Promise<HttpRun> {
  const latencies: number[] = [];
  return new Promise((resolve, reject) => {
    const instance = autocannon(
      { url, connections: CONNECTIONS, duration: seconds, timeout: 10, requests },
      (error: unknown, result) => {
        if (error) return reject(error instanceof Error ? error : new Error(inspect(error)));
        const statuses = Object.fromEntries(
          Object.entries(result.statusCodeStats ?? {}).map(([code, s]) => [code, s.count ?? 0]),
        );
        resolve({
          ok: result['2xx'],
          non2xx: result.non2xx,
          errors: result.errors,
          seconds: result.duration,
          latencies,
          statuses,
        });
      },
    );
    instance.on('response', (_client, status, _bytes, ms) => {
      if (status >= 200 && status < 300) latencies.push(ms);
    });
  });
}

/** Totals of rounds, percentiles over every answer of every round. */
export function summarizeHttp(runs: HttpRun[]): HttpSummary {
  const sum = (f: (r: HttpRun) => number) => runs.reduce((a, r) => a + f(r), 0);
  const statuses: Record<string, number> = {};
  for (const r of runs) for (const [code, n] of Object.entries(r.statuses)) statuses[code] = (statuses[code] ?? 0) + n;
  const seconds = sum((r) => r.seconds);
  const latencies = runs.flatMap((r) => r.latencies);
  return {
    ok: sum((r) => r.ok),
    non2xx: sum((r) => r.non2xx),
    errors: sum((r) => r.errors),
    seconds,
    perSecond: seconds ? sum((r) => r.ok) / seconds : 0,
    p50: percentile(latencies, 50),
    p99: percentile(latencies, 99),
    statuses,
  };
}

export function assertClean(name: string, s: HttpSummary): void {
  if (s.non2xx || s.errors) {
    throw new Error(
      `${name}: ${s.non2xx} non-2xx answers and ${s.errors} errors (statuses ${JSON.stringify(s.statuses)})`,
    );
  }
}

/** bench/domains/bare-api.main.ts with the real service's answers to mimic; resolves once it listens. */
export async function startBareApi(bodies: { get?: unknown; post?: unknown }): Promise<{ url: string; proc: Child }> {
  const bare = startScript(
    'bare-api',
    built('bench/domains/bare-api.main'),
    { BARE_GET_BODY: JSON.stringify(bodies.get ?? {}), BARE_POST_BODY: JSON.stringify(bodies.post ?? {}) },
    ['--enable-source-maps'],
  );
  return { url: await bare.waitFor(/bare api listening on (http:\/\/127\.0\.0\.1:\d+)/, 30_000), proc: bare };
}

export const line = (name: string, s: HttpSummary) =>
  `${name}: ${Math.round(s.perSecond)}/s p50 ${s.p50.toFixed(2)} ms p99 ${s.p99.toFixed(2)} ms ` +
  `(${s.ok} ok, ${s.non2xx} non-2xx, ${s.errors} errors)`;

export interface TargetLoad {
  runs: HttpRun[];
  /** Wall-clock milliseconds of this target's rounds. */
  ms: number;
  /** CPU seconds of each of the target's processes during its rounds. */
  cpu: number[];
  /** CPU seconds of this database's PostgreSQL backends during the target's rounds. */
  databaseCpu: number;
  /** CPU seconds of this process (autocannon) during the target's rounds. */
  loadCpu: number;
  /** CPU seconds of the NATS server during the target's rounds (NaN when it is not on this machine). */
  busCpu: number;
}

/**
 * Alternating rounds against each target (drift on a shared machine hits every side alike), each
 * with its own requests if it names them, with
 * the CPU time its processes, the database and the load generator used during its own rounds.
 */
export async function alternate<K extends string>(
  targets: Record<K, { url: string; procs: Child[]; requests?: autocannon.Request[] }>,
  rounds: number,
  seconds: number,
  requests: autocannon.Request[],
  pg: Pool,
  busPid?: number,
): Promise<Record<K, TargetLoad>> {
  const names = Object.keys(targets) as K[];
  const out = {} as Record<K, TargetLoad>;
  for (const n of names)
    out[n] = { runs: [], ms: 0, cpu: targets[n].procs.map(() => 0), databaseCpu: 0, loadCpu: 0, busCpu: 0 };
  for (let i = 0; i < rounds; i++) {
    for (const name of names) {
      const { url, procs } = targets[name];
      const sent = targets[name].requests ?? requests;
      const before = {
        procs: procs.map(cpuSeconds),
        db: await databaseCpu(pg),
        own: process.cpuUsage(),
        bus: processCpuSeconds(busPid),
      };
      const started = Date.now();
      out[name].runs.push(await cannon(url, seconds, sent));
      out[name].ms += Date.now() - started;
      const own = process.cpuUsage(before.own);
      out[name].loadCpu += (own.user + own.system) / 1e6;
      out[name].databaseCpu += databaseCpuDelta(before.db, await databaseCpu(pg));
      out[name].busCpu += processCpuSeconds(busPid) - before.bus;
      procs.forEach((p, j) => (out[name].cpu[j] += cpuSeconds(p) - before.procs[j]));
    }
  }
  return out;
}
