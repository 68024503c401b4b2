import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Pool } from 'pg';
import type { DnsZones } from '../../test/support/dns-server';
import { BENCH_APPLICATION_NAME, waitForCoverage } from '../lib/cluster';
import { built } from '../lib/paths';
import { Child, startScript } from '../lib/processes';
import { sleep } from '../lib/stats';
import { requireSource } from '../lib/source';
import { BenchEnv } from '../lib/types';
import { serviceArgs } from '../lib/service-args';
import { processCpuSeconds } from '../lib/process-cpu';

/*
 * The real service for the domain benchmarks: the api and node processes as built (dist/apps), on
 * the benchmark's database and NATS prefix, resolving through a loopback DNS server process that
 * holds test/support's fixture zones.
 */

export type DomainFixtures = typeof import('../../test/support/domain-fixtures');
/** EDGE_TARGET, ORIGIN_URL, domainZones(), domainEnv() of test/support (run from source). */
export const fixtures = (): DomainFixtures => requireSource<DomainFixtures>('test/support/domain-fixtures');

export const BENCH_ADMIN_TOKEN = 'bench-admin-token-0123456789abcdef';
const BENCH_SIGNING_SECRET = 'bench-signing-secret-0123456789abcdef0123';
const BENCH_ENCRYPTION_KEY = 'bench-encryption-key-0123456789abcdef0123';
/** Nothing listens there: no certificate order can ever leave the machine. */
const NO_ACME = 'http://127.0.0.1:9/directory';

export interface DnsStats {
  queries: number;
  byType: Record<string, number>;
  /** With a window: its questions and how many of its 100 ms slots saw at least one. */
  window?: { queries: number; slots: number; slotsWithQueries: number };
}

export interface BenchDns {
  /** `127.0.0.1:PORT`, for DNS_RESOLVERS and DnsResolver. */
  address: string;
  stats(window?: { from: number; to: number }): Promise<DnsStats>;
  proc: Child;
}

/** test/support's loopback DNS server in a process of its own (bench/domains/dns-server.main.ts). */
export async function startDns(zones: DnsZones): Promise<BenchDns> {
  const dir = mkdtempSync(join(tmpdir(), 'bench-dns-'));
  try {
    const file = join(dir, 'zones.json');
    writeFileSync(file, JSON.stringify(zones));
    const proc = startScript('dns', built('bench/domains/dns-server.main'), { DNS_ZONES_FILE: file }, [
      '--enable-source-maps',
    ]);
    const [address, control] = (await proc.waitFor(/dns ready on (\S+ control \d+)/, 30_000)).split(' control ');
    const stats = async (window?: { from: number; to: number }) => {
      const query = window ? `?from=${window.from}&to=${window.to}` : '';
      return (await (await fetch(`http://127.0.0.1:${control}/stats${query}`)).json()) as DnsStats;
    };
    return { address, stats, proc };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** What the api and node processes need, with the SPEC's rate limits off (RATE_LIMITS=off). */
export function serviceEnv(env: BenchEnv, dnsAddress: string, extra: Record<string, string> = {}) {
  return {
    DATABASE_URL: env.databaseUrl,
    NATS_URL: env.natsUrl,
    NATS_SUBJECT_PREFIX: env.prefix,
    PORT: '0',
    ADMIN_TOKEN: BENCH_ADMIN_TOKEN,
    SIGNING_SECRET: BENCH_SIGNING_SECRET,
    ENCRYPTION_KEY: BENCH_ENCRYPTION_KEY,
    RATE_LIMITS: 'off',
    ACME_DIRECTORY_URL: NO_ACME,
    ...fixtures().domainEnv(dnsAddress),
    ...extra,
  };
}

/**
 * dist/apps/node as `nodeId`; resolves with its health and metrics URL once it serves. A node's first
 * start on a database full of domains copies every hostname into the edge replica before it serves
 * (about 60 s at 1,000,000 here): give it `timeoutMs`.
 */
export async function startNode(
  env: BenchEnv,
  dnsAddress: string,
  nodeId: string,
  extra: Record<string, string> = {},
  timeoutMs = 45_000,
) {
  const proc = startScript(
    nodeId,
    built('apps/node/src/main'),
    serviceEnv(env, dnsAddress, { NODE_ID: nodeId, ...extra }),
    serviceArgs('node'),
  );
  const url = await proc.waitFor(/health and metrics on (http:\/\/127\.0\.0\.1:\d+)/, timeoutMs);
  return { proc, url };
}

/** dist/apps/api; resolves with its URL once it listens. */
export async function startApi(env: BenchEnv, dnsAddress: string) {
  const proc = startScript('api', built('apps/api/src/main'), serviceEnv(env, dnsAddress), serviceArgs('api'));
  const url = await proc.waitFor(/api listening on (http:\/\/127\.0\.0\.1:\d+)/, 45_000);
  return { proc, url };
}

/** One api and one node process (migrations run by the api first), the node owning every shard. */
export async function startService(
  env: BenchEnv,
  pg: Pool,
  dnsAddress: string,
  nodeExtra: Record<string, string> = {},
) {
  const api = await startApi(env, dnsAddress);
  const node = await startNode(env, dnsAddress, 'n1', nodeExtra);
  await waitForCoverage(pg, ['n1'], 30_000, [node.proc]);
  return { api, node };
}

export async function json<T = Record<string, any>>(
  url: string,
  method: string,
  token: string,
  body?: unknown,
): Promise<{ status: number; body: T }> {
  const res = await fetch(url, {
    method,
    headers: { authorization: `Bearer ${token}`, ...(body ? { 'content-type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  return { status: res.status, body: (await res.json()) as T };
}

/** A workspace with a saved card (pm_card_visa) through the admin API; its API key. */
export async function createWorkspace(apiUrl: string): Promise<{ workspaceId: string; apiKey: string }> {
  const res = await json(`${apiUrl}/admin/workspaces`, 'POST', BENCH_ADMIN_TOKEN, {
    name: 'bench',
    paymentMethod: 'pm_card_visa',
  });
  if (res.status !== 201) throw new Error(`POST /admin/workspaces answered ${res.status}: ${JSON.stringify(res.body)}`);
  return { workspaceId: res.body.workspace.id as string, apiKey: res.body.apiKey as string };
}

/** POST /v1/domains; throws unless 201. */
export async function createDomain(apiUrl: string, apiKey: string, hostname: string) {
  const res = await json(`${apiUrl}/v1/domains`, 'POST', apiKey, { hostname, originUrl: fixtures().ORIGIN_URL });
  if (res.status !== 201) throw new Error(`POST /v1/domains ${hostname}: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body as { domain: { id: string; hostname: string } & Record<string, unknown> };
}

/** Waits until the node's monitor has completed `count` probes (monitor_probes_total). */
export async function waitForProbes(nodeUrl: string, count: number, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let done = 0;
  while (Date.now() < deadline) {
    done = metricSum(await (await fetch(`${nodeUrl}/metrics`)).text(), 'monitor_probes_total');
    if (done >= count) return;
    await sleep(250);
  }
  throw new Error(`The monitor completed ${done} of ${count} probes within ${timeoutMs} ms`);
}

/** A metric's value summed over its label sets, from a Prometheus text page. */
export function metricSum(text: string, name: string, labels = ''): number {
  let sum = 0;
  for (const line of text.split('\n')) {
    if (!line.startsWith(`${name}{`) && !line.startsWith(`${name} `)) continue;
    if (labels && !line.includes(labels)) continue;
    sum += Number(line.slice(line.lastIndexOf(' ') + 1));
  }
  return sum;
}

/** A gauge of the api's answers before the Nest pipeline (a fast path's `*_fast_path_answers`), from /metrics. */
export async function fastPathAnswers(apiUrl: string, name: string): Promise<number> {
  const text = await (await fetch(`${apiUrl}/metrics`)).text();
  if (!new RegExp(`^${name} `, 'm').test(text)) throw new Error(`the api exposes no ${name} on /metrics`);
  return metricSum(text, name);
}

/** CPU seconds a child process has used so far (`processCpuSeconds`). */
export const cpuSeconds = (child: Child): number => processCpuSeconds(child.child.pid);

/** CPU seconds over wall-clock milliseconds, as a percentage of one core. */
export const percent = (cpu: number, ms: number) =>
  Number.isNaN(cpu) ? 'n/a' : `${Math.round((cpu / (ms / 1000)) * 100)}%`;

/**
 * CPU seconds so far of the PostgreSQL backends serving this benchmark's database (same machine):
 * the services' connections, not the benchmark's own (its polls are not the service's cost).
 */
export async function databaseCpu(pg: Pool): Promise<Map<number, number>> {
  const { rows } = await pg.query<{ pid: number }>(
    `select pid from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid()
       and application_name is distinct from $1`,
    [BENCH_APPLICATION_NAME],
  );
  const out = new Map<number, number>();
  for (const { pid } of rows) {
    const cpu = processCpuSeconds(pid);
    if (!Number.isNaN(cpu)) out.set(pid, cpu);
  }
  return out;
}

/** CPU seconds the backends present at both samples used in between. */
export const databaseCpuDelta = (before: Map<number, number>, after: Map<number, number>) =>
  [...after].reduce((sum, [pid, cpu]) => sum + (before.has(pid) ? cpu - before.get(pid)! : 0), 0);
