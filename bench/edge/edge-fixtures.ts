import { SecretBox } from '@app/crypto';
import { CHECKPOINT_KEY, ReplicaEntry, replicaBucket, replicaKey } from '@app/edge';
import { KV, connect as natsConnect } from 'nats';
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { Pool } from 'pg';
import { TestCertificate, issueCertificate, testCertificateAuthority } from '../../test/fixtures/test-certificates';
import { migrateDatabase } from '../lib/database';
import { built } from '../lib/paths';
import { Child, startScript } from '../lib/processes';
import { serviceArgs } from '../lib/service-args';
import { sleep } from '../lib/stats';
import { BenchEnv } from '../lib/types';

export const CADDY_BIN = process.env.CADDY_BIN ?? '/usr/bin/caddy';
const BENCH_ENCRYPTION_KEY = 'bench-encryption-key-0123456789abcdef0123';

export async function freePort(): Promise<number> {
  const { createServer } = await import('node:net');
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const port = (server.address() as { port: number }).port;
      server.close(() => resolve(port));
    });
  });
}

export async function waitForPort(port: number, ms: number, what: string, child?: Child | { exitCode: number | null }) {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    const open = await new Promise<boolean>((resolve) => {
      const socket = connect(port, '127.0.0.1');
      socket.once('connect', () => (socket.destroy(), resolve(true)));
      socket.once('error', () => resolve(false));
    });
    if (open) return;
    const exited = child && ('child' in child ? child.child.exitCode : child.exitCode);
    if (exited !== undefined && exited !== null) throw new Error(`${what} exited`);
    await sleep(50);
  }
  throw new Error(`${what} did not listen on ${port} within ${ms} ms`);
}

/** The loopback origin process; resolves with its port. */
export async function startOrigin(): Promise<number> {
  const origin = startScript('origin', built('bench/edge/origin.main'), {});
  return Number(await origin.waitFor(/origin ready on (\d+)/, 15_000));
}

/** The real edge process (dist/apps/edge) on the benchmark's database and NATS namespace. */
export async function startEdge(
  env: BenchEnv,
  extraEnv: Record<string, string> = {},
): Promise<{ https: number; metricsUrl: string; proc: Child; spawnedAt: number }> {
  // The edge never migrates (it starts during outages).
  await migrateDatabase(env);
  const ports = { http: await freePort(), https: await freePort() };
  const spawnedAt = performance.now();
  const proc = startScript(
    'edge',
    built('apps/edge/src/main'),
    {
      DATABASE_URL: env.databaseUrl,
      NATS_URL: env.natsUrl,
      NATS_SUBJECT_PREFIX: env.prefix,
      ENCRYPTION_KEY: BENCH_ENCRYPTION_KEY,
      PORT: '0',
      EDGE_HTTP_PORT: String(ports.http),
      EDGE_HTTPS_PORT: String(ports.https),
      OUTBOUND_ALLOW_CIDRS: '127.0.0.0/8',
      ...extraEnv,
    },
    serviceArgs('other'),
  );
  const url = await proc.waitFor(/health and metrics on (http:\/\/127\.0\.0\.1:\d+)/, 45_000);
  await waitForPort(ports.https, 10_000, 'edge', proc);
  return { https: ports.https, metricsUrl: `${url}/metrics`, proc, spawnedAt };
}

/**
 * The edge replica of the benchmark's namespace, filled as a node's replica writer would (the edge
 * benchmarks run no node): `put` writes entries, `close` ends the connection.
 */
export async function openReplica(
  env: BenchEnv,
): Promise<{ put(entries: ReplicaEntry[]): Promise<void>; close(): Promise<void> }> {
  const nc = await natsConnect({ servers: env.natsUrl });
  const kv: KV = await nc.jetstream().views.kv(replicaBucket(env.prefix), { history: 1 });
  const encoder = new TextEncoder();
  return {
    put: async (entries) => {
      await Promise.all(entries.map((e) => kv.put(replicaKey(e.hostname), encoder.encode(JSON.stringify(e)))));
    },
    close: () => nc.drain(),
  };
}

/** The last number in the edge change log (`edge_change_log`: `edge_changes` and domain rows), 0 if none. */
export async function lastEdgeChange(pg: Pool): Promise<number> {
  const { rows } = await pg.query<{ last: string }>('select coalesce(max(seq), 0) as last from edge_change_log');
  return Number(rows[0].last);
}

/**
 * Waits until the nodes' replica writers have copied the edge change log up to `seq` (their
 * checkpoint in the bucket); resolves with the seconds it took.
 */
export async function waitForReplicaCheckpoint(env: BenchEnv, seq: number, timeoutMs: number): Promise<number> {
  const started = Date.now();
  const nc = await natsConnect({ servers: env.natsUrl });
  try {
    const kv: KV = await nc.jetstream().views.kv(replicaBucket(env.prefix), { history: 1 });
    for (;;) {
      const value = (await kv.get(CHECKPOINT_KEY))?.string();
      const at = value ? Number((JSON.parse(value) as { seq?: number }).seq ?? 0) : 0;
      if (at >= seq) return (Date.now() - started) / 1000;
      if (Date.now() - started > timeoutMs) {
        throw new Error(`The edge replica's checkpoint is at ${at} after ${timeoutMs} ms, not at ${seq}`);
      }
      await sleep(1_000);
    }
  } finally {
    await nc.close();
  }
}

/**
 * `count` verified proxy domains `h<i>.bench-edge.com` to `originUrl`, each with its own certificate,
 * in PostgreSQL and in the edge replica. `keep` (default all) says which certificates to answer with:
 * at 100,000 the bench keeps a sample, not every key.
 */
export async function seedDomains(
  pg: Pool,
  env: BenchEnv,
  count: number,
  originUrl: string,
  keep: (i: number) => boolean = () => true,
): Promise<Map<string, TestCertificate>> {
  const replica = await openReplica(env);
  const box = new SecretBox(BENCH_ENCRYPTION_KEY);
  const ca = testCertificateAuthority('Bench CA');
  const state = { originUrl, mode: 'proxy', keepHost: false, redirectWww: false, redirectStatus: 301, metadata: {} };
  await pg.query(`insert into workspaces (id, name) values ('ws_bench', 'bench') on conflict do nothing`);
  const certs = new Map<string, TestCertificate>();
  for (let start = 0; start < count; start += 1_000) {
    const rows = Array.from({ length: Math.min(1_000, count - start) }, (_, i) => {
      const hostname = `h${start + i}.bench-edge.com`;
      const cert = issueCertificate({ hostnames: [hostname], issuer: ca });
      if (keep(start + i)) certs.set(hostname, cert);
      return { id: `dom_bench_${start + i}`, hostname, cert, keySealed: box.seal(cert.keyPem) };
    });
    await pg.query(
      // Not in the monitor's schedule: the edge benchmark runs no monitor.
      `insert into domains (id, workspace_id, hostname, shard, status, monitor_status, state, version, created_at, updated_at)
       select id, 'ws_bench', hostname, 0, 'verified', 'active_ssl', $3::jsonb, 1, now(), now()
         from unnest($1::text[], $2::text[]) as t(id, hostname)`,
      [rows.map((r) => r.id), rows.map((r) => r.hostname), JSON.stringify(state)],
    );
    await pg.query(
      `insert into certificates (domain_id, hostname, cert_pem, key_sealed, not_before, not_after, issuer)
       select *, 'Bench CA' from unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::timestamptz[], $6::timestamptz[])`,
      [
        rows.map((r) => r.id),
        rows.map((r) => r.hostname),
        rows.map((r) => r.cert.chainPem),
        rows.map((r) => r.keySealed),
        rows.map((r) => r.cert.notBefore),
        rows.map((r) => r.cert.notAfter),
      ],
    );
    await replica.put(
      rows.map((r) => ({
        domainId: r.id,
        hostname: r.hostname,
        status: 'verified',
        monitorStatus: 'active_ssl',
        mode: 'proxy',
        originUrl,
        keepHost: false,
        redirectWww: false,
        redirectStatus: 301,
        certificate: { chainPem: r.cert.chainPem, keySealed: r.keySealed },
      })),
    );
  }
  await replica.close();
  return certs;
}

/** Certificate and key as files, for Caddy and the static TLS baseline. */
export function writeCertificateFiles(cert: TestCertificate): { dir: string; certFile: string; keyFile: string } {
  const dir = mkdtempSync(join(tmpdir(), 'bench-edge-'));
  const certFile = join(dir, 'cert.pem');
  const keyFile = join(dir, 'key.pem');
  writeFileSync(certFile, cert.chainPem);
  writeFileSync(keyFile, cert.keyPem, { mode: 0o600 });
  return { dir, certFile, keyFile };
}

/**
 * The edge as the monitor's served-certificate checks see it: bench/edge/static-tls.main on
 * 127.0.0.1 with a valid certificate for `*.suffix` (signed by a bench CA). Point the edge target's
 * A record at `ip` and the nodes' PROBE_TLS_PORT at `port`; `cleanup` removes the key files.
 */
export async function startEdgeStandIn(suffix: string): Promise<{ ip: string; port: string; cleanup(): void }> {
  const cert = issueCertificate({ hostnames: [`*.${suffix}`], issuer: testCertificateAuthority('Bench CA') });
  const files = writeCertificateFiles(cert);
  const cleanup = () => rmSync(files.dir, { recursive: true, force: true });
  try {
    const proc = startScript('edge-tls', built('bench/edge/static-tls.main'), {
      CERT_FILE: files.certFile,
      KEY_FILE: files.keyFile,
    });
    const port = await proc.waitFor(/static tls ready on (\d+)/, 15_000);
    return { ip: '127.0.0.1', port, cleanup };
  } catch (error) {
    cleanup();
    throw error;
  }
}

/** CPU seconds a process has used so far, by pid (`processCpuSeconds`). */
export { processCpuSeconds as cpuSeconds } from '../lib/process-cpu';

export interface RunningCaddy {
  port: number;
  pid: number | undefined;
  version: string;
  stop(): Promise<void>;
}

/** Caddy's reverse_proxy with the same certificate in front of the same origin; undefined when not installed. */
export async function startCaddy(
  hostname: string,
  cert: TestCertificate,
  originPort: number,
): Promise<RunningCaddy | undefined> {
  if (!existsSync(CADDY_BIN)) return undefined;
  const files = writeCertificateFiles(cert);
  const port = await freePort();
  const caddyfile = join(files.dir, 'Caddyfile');
  writeFileSync(
    caddyfile,
    `{\n\tadmin off\n\tskip_install_trust\n\tauto_https disable_redirects\n\thttps_port ${port}\n}\n\n` +
      `https://${hostname} {\n\ttls ${files.certFile} ${files.keyFile}\n\treverse_proxy 127.0.0.1:${originPort}\n}\n`,
  );
  const version = await new Promise<string>((resolve) => {
    const v = spawn(CADDY_BIN, ['version']);
    let out = '';
    v.stdout.on('data', (c: Buffer) => (out += c.toString()));
    v.on('exit', () => resolve(out.trim().split(' ')[0] || 'unknown'));
  });
  const env = { PATH: process.env.PATH ?? '', HOME: files.dir, XDG_DATA_HOME: files.dir, XDG_CONFIG_HOME: files.dir };
  const child = spawn(CADDY_BIN, ['run', '--config', caddyfile, '--adapter', 'caddyfile'], { env, stdio: 'ignore' });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  process.once('exit', () => child.kill('SIGKILL'));
  await waitForPort(port, 15_000, 'caddy', child);
  return {
    port,
    pid: child.pid,
    version,
    stop: async () => {
      if (child.exitCode === null) child.kill('SIGTERM');
      await exited;
      rmSync(files.dir, { recursive: true, force: true });
    },
  };
}

/** The edge's resident memory from its /metrics. */
export async function residentBytes(metricsUrl: string): Promise<number> {
  const text = await (await fetch(metricsUrl)).text();
  return Number(/^process_resident_memory_bytes (\d+(?:\.\d+)?(?:e\+\d+)?)$/m.exec(text)?.[1] ?? 0);
}
