import { ChildProcess, execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { request as httpsRequest } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { connect as tlsConnect } from 'node:tls';
import type { AcmeProxy } from '../../test/support/acme-proxy';
import type { DnsRecord, DnsZones } from '../../test/support/dns-server';
import { cpuSeconds, serviceEnv } from '../domains/service';
import { built } from '../lib/paths';
import { Child, startScript } from '../lib/processes';
import { requireSource } from '../lib/source';
import { sleep } from '../lib/stats';
import { BenchEnv } from '../lib/types';
import { serviceArgs } from '../lib/service-args';

/*
 * What the certificate benchmarks run: Pebble (Let's Encrypt's ACME test server, Debian's
 * /usr/bin/pebble) behind test/support's ACME proxy (which records every newOrder), a loopback DNS
 * server whose records change while the benchmark runs, and the real service processes from dist.
 */

type FreePorts = typeof import('../../test/support/free-ports');
type PebbleModule = typeof import('../../test/support/pebble');
type ProxyModule = typeof import('../../test/support/acme-proxy');

/** A port below the ephemeral range, free on every address (test/support/free-ports). */
export const freePort = (): Promise<number> => requireSource<FreePorts>('test/support/free-ports').freePort();

export interface ControlledDns {
  address: string;
  proc: Child;
  /** Replaces a name's records; resolves with the epoch ms from which the server answers them. */
  setRecords(name: string, records: DnsRecord[]): Promise<number>;
  /** The questions so far about names ending in `suffix`, of `types`: [name, type, at]. */
  log(suffix: string, types: string[]): Promise<[string, string, number][]>;
  stats(): Promise<{ queries: number; byType: Record<string, number> }>;
}

/** bench/certificates/dns-control.main: test/support's DNS server, records changed over HTTP. */
export async function startControlledDns(zones: DnsZones): Promise<ControlledDns> {
  const dir = mkdtempSync(join(tmpdir(), 'bench-dns-'));
  try {
    const file = join(dir, 'zones.json');
    writeFileSync(file, JSON.stringify(zones));
    const proc = startScript('dns', built('bench/certificates/dns-control.main'), { DNS_ZONES_FILE: file }, [
      '--enable-source-maps',
    ]);
    const [address, port] = (await proc.waitFor(/dns ready on (\S+ control \d+)/, 30_000)).split(' control ');
    const control = `http://127.0.0.1:${port}`;
    return {
      address,
      proc,
      setRecords: async (name, records) => {
        const res = await fetch(`${control}/records`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ name, records }),
        });
        if (res.status !== 200) throw new Error(`DNS control answered ${res.status}: ${await res.text()}`);
        return ((await res.json()) as { at: number }).at;
      },
      log: async (suffix, types) =>
        (await (
          await fetch(`${control}/log?suffix=${encodeURIComponent(suffix)}&types=${types.join(',')}`)
        ).json()) as [string, string, number][],
      stats: async () =>
        (await (await fetch(`${control}/stats`)).json()) as { queries: number; byType: Record<string, number> },
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

export interface BenchPebble {
  directoryUrl: string;
  caFile: string;
  managementUrl: string;
  child: ChildProcess;
  /** Certificates Pebble says it issued ("Issued certificate serial ..." lines). */
  issued(): number;
  cpuSeconds(): number;
  stop(): Promise<void>;
}

let pebbleVersionCache: string | undefined;
/** Debian's package version of /usr/bin/pebble (the binary has no -version flag). */
export function pebbleVersion(): string {
  if (pebbleVersionCache) return pebbleVersionCache;
  try {
    pebbleVersionCache = execFileSync('dpkg-query', ['-W', '-f', '${Version}', 'pebble'], { encoding: 'utf8' }).trim();
  } catch {
    pebbleVersionCache = 'unknown';
  }
  return pebbleVersionCache;
}

/**
 * Pebble as test/support/pebble.ts starts it (PEBBLE_VA_NOSLEEP=1, no rejected good nonces, no
 * authorization reuse), with its process kept here so that it dies with the benchmark whatever
 * happens, and its log counted. `alwaysValid`: PEBBLE_VA_ALWAYS_VALID=1, no HTTP-01 validation at all.
 */
export async function startBenchPebble(options: {
  dnsServer: string;
  httpPort: number;
  alwaysValid?: boolean;
}): Promise<BenchPebble> {
  const { writePebbleConfig, PEBBLE_ENV } = requireSource<PebbleModule>('test/support/pebble');
  const dir = mkdtempSync(join(tmpdir(), 'bench-pebble-'));
  const { configFile, port, managementPort, certFile } = await writePebbleConfig(dir, { httpPort: options.httpPort });
  const child = spawn(
    process.env.PEBBLE_BIN ?? '/usr/bin/pebble',
    ['-config', configFile, '-dnsserver', options.dnsServer],
    {
      env: {
        PATH: process.env.PATH ?? '',
        ...PEBBLE_ENV,
        ...(options.alwaysValid ? { PEBBLE_VA_ALWAYS_VALID: '1' } : {}),
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  const kill = () => child.kill('SIGKILL');
  process.once('exit', kill);
  let issued = 0;
  let tail = '';
  const onData = (chunk: Buffer) => {
    const text = tail + chunk.toString();
    const lines = text.split('\n');
    tail = lines.pop() ?? '';
    for (const line of lines) if (line.includes('Issued certificate serial')) issued++;
  };
  child.stdout.on('data', onData);
  child.stderr.on('data', onData);
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) kill();
    await exited;
    process.off('exit', kill);
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    await waitForTls(port, certFile, 30_000);
    await waitForTls(managementPort, certFile, 10_000);
  } catch (error) {
    await stop();
    throw error;
  }
  return {
    directoryUrl: `https://127.0.0.1:${port}/dir`,
    caFile: certFile,
    managementUrl: `https://127.0.0.1:${managementPort}`,
    child,
    issued: () => issued,
    cpuSeconds: () => cpuSeconds({ child } as Child),
    stop,
  };
}

async function waitForTls(port: number, caFile: string, ms: number): Promise<void> {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    try {
      await httpsGet(`https://127.0.0.1:${port}/`, caFile);
      return;
    } catch {
      await sleep(100);
    }
  }
  throw new Error(`Pebble did not listen on ${port} within ${ms} ms`);
}

/** GET over HTTPS trusting `caFile`; the body whatever the status. */
export function httpsGet(url: string, caFile: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const req = httpsRequest(url, { ca: readFileSync(caFile) }, (res) => {
      let body = '';
      res.on('data', (chunk: Buffer) => (body += chunk.toString()));
      res.once('end', () => resolve(body));
      res.once('error', reject);
    });
    req.once('error', reject);
    req.end();
  });
}

/** Pebble's root (made afresh at each start): what a served certificate must chain to. */
export const pebbleRoot = (pebble: BenchPebble) => httpsGet(`${pebble.managementUrl}/roots/0`, pebble.caFile);

/**
 * Pebble 2.4.0 can deadlock under load (serial-gate.main.ts says how). A canary asks for a new order
 * every 15 s with an account of its own, past the ACME proxy (its orders are not counted) but through
 * the gate; two failures in a row mark the CA as hung from the first.
 */
export async function pebbleCanary(pebble: { directoryUrl: string; caFile: string }) {
  const { AcmeClient } = await import('../../libs/certificates/src/acme/acme-client');
  const { AcmeHttp } = await import('../../libs/certificates/src/acme/acme-http');
  const { AccountKey } = await import('../../libs/certificates/src/acme/acme-jws');
  const http = new AcmeHttp(pebble.caFile);
  const client = new AcmeClient(http, pebble.directoryUrl, await AccountKey.fromPem(AccountKey.generate()));
  await client.register({});
  let failedSince: number | undefined;
  let hungAt: number | undefined;
  let lastError: string | undefined;
  let n = 0;
  let stopped = false;
  const loop = (async () => {
    while (!stopped) {
      const at = Date.now();
      try {
        await client.newOrder([`canary${n++}.canary-bench.com`]);
        failedSince = undefined;
      } catch (error) {
        lastError = error instanceof Error ? error.message : String(error);
        if (failedSince !== undefined) hungAt ??= failedSince;
        failedSince ??= at;
      }
      const wait = at + 15_000 - Date.now();
      for (let t = 0; t < wait && !stopped; t += 250) await sleep(250);
    }
  })();
  return {
    hungAt: () => hungAt,
    lastError: () => lastError,
    stop: async () => {
      stopped = true;
      await loop;
      await http.close().catch(() => undefined);
    },
  };
}

/** Where ACME requests go: Pebble itself, or the serial gate in front of it. */
export interface AcmeUpstream {
  directoryUrl: string;
  caFile: string;
  managementUrl: string;
  stop(): Promise<void>;
}

export interface GateStats {
  posts: number;
  others: number;
  waitedMs: number;
  maxWaitMs: number;
  upstreamMs: number;
  maxQueue: number;
}

/** bench/certificates/serial-gate.main in front of Pebble: one POST at a time (Pebble's lock-order deadlock). */
export async function startSerialGate(
  pebble: BenchPebble,
): Promise<AcmeUpstream & { proc: Child; stats(): Promise<GateStats> }> {
  const dir = mkdtempSync(join(tmpdir(), 'bench-gate-'));
  const upstream = new URL(pebble.directoryUrl);
  const proc = startScript(
    'serial-gate',
    built('bench/certificates/serial-gate.main'),
    { UPSTREAM: upstream.origin, UPSTREAM_CA: pebble.caFile, CERT_DIR: dir },
    ['--enable-source-maps'],
  );
  try {
    const port = await proc.waitFor(/gate ready on (\d+)/, 30_000);
    const origin = `https://127.0.0.1:${port}`;
    const caFile = join(dir, 'cert.pem');
    return {
      directoryUrl: `${origin}${upstream.pathname}`,
      caFile,
      managementUrl: pebble.managementUrl,
      proc,
      stats: async () => JSON.parse(await httpsGet(`${origin}/__gate/stats`, caFile)) as GateStats,
      stop: async () => {
        await proc.stop();
        rmSync(dir, { recursive: true, force: true });
      },
    };
  } catch (error) {
    await proc.stop();
    rmSync(dir, { recursive: true, force: true });
    throw error;
  }
}

export const describeGate = (g: GateStats) =>
  `${g.posts.toLocaleString('en-US')} POSTs one at a time (mean wait for the turn ${(g.waitedMs / Math.max(1, g.posts)).toFixed(1)} ms, ` +
  `longest ${Math.round(g.maxWaitMs)} ms, most waiting at once ${g.maxQueue}; Pebble busy with a POST ` +
  `${(g.upstreamMs / Math.max(1, g.posts)).toFixed(1)} ms each), ${g.others.toLocaleString('en-US')} GET/HEAD passed through`;

export const subtractGate = (a: GateStats, b: GateStats): GateStats => ({
  posts: a.posts - b.posts,
  others: a.others - b.others,
  waitedMs: a.waitedMs - b.waitedMs,
  maxWaitMs: a.maxWaitMs,
  upstreamMs: a.upstreamMs - b.upstreamMs,
  maxQueue: a.maxQueue,
});

/** test/support's ACME proxy in front of Pebble (or the gate): every newOrder recorded (and ARI in the directory). */
export function startProxy(upstream: AcmeUpstream): Promise<AcmeProxy> {
  return requireSource<ProxyModule>('test/support/acme-proxy').startAcmeProxy({ upstream });
}

/** newOrder requests per hostname: how many hostnames were ordered more than once, and the most. */
export function duplicateOrders(proxy: AcmeProxy, suffix: string) {
  const perHostname = new Map<string, number>();
  for (const order of proxy.orders())
    for (const id of order.identifiers)
      if (id.value.endsWith(suffix)) perHostname.set(id.value, (perHostname.get(id.value) ?? 0) + 1);
  const repeated = [...perHostname].filter(([, n]) => n > 1);
  return {
    orders: [...perHostname.values()].reduce((a, b) => a + b, 0),
    hostnames: perHostname.size,
    repeated: repeated.length,
    most: repeated.reduce((a, [, n]) => Math.max(a, n), 1),
    examples: repeated.slice(0, 3).map(([h, n]) => `${h} x${n}`),
  };
}

/**
 * Whether the edge at 127.0.0.1:`port` completes a TLS handshake for SNI `hostname` with a
 * certificate that names it and chains to `root` (Node's own verification and hostname check).
 */
export function servesCertificate(port: number, hostname: string, root: string): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = tlsConnect({ host: '127.0.0.1', port, servername: hostname, ca: root, rejectUnauthorized: true });
    const done = (ok: boolean) => {
      clearTimeout(timer);
      socket.destroy();
      resolve(ok);
    };
    const timer = setTimeout(() => done(false), 5_000);
    socket.once('secureConnect', () => done(socket.authorized));
    socket.once('error', () => done(false));
  });
}

/** dist/apps/standalone (api + node + edge in one process) on the benchmark's database and NATS. */
export async function startStandalone(env: BenchEnv, dnsAddress: string, extra: Record<string, string>) {
  const proc = startScript(
    'standalone',
    built('apps/standalone/src/main'),
    serviceEnv(env, dnsAddress, extra),
    serviceArgs('node'),
  );
  const url = await proc.waitFor(/\(standalone\) is up at (http:\/\/127\.0\.0\.1:\d+)/, 90_000);
  return { proc, url };
}

/** dist/apps/api with `extra` settings (the ACME issuers, so its CAA warnings judge the same CAs). */
export async function startApiWith(env: BenchEnv, dnsAddress: string, extra: Record<string, string>) {
  const proc = startScript('api', built('apps/api/src/main'), serviceEnv(env, dnsAddress, extra), serviceArgs('api'));
  const url = await proc.waitFor(/api listening on (http:\/\/127\.0\.0\.1:\d+)/, 90_000);
  return { proc, url };
}

/** With BENCH_LOG_DIR set, each process's output (its last 100 kB) is written there as `<name>.log`. */
export function keepLogs(children: Child[]): void {
  const dir = process.env.BENCH_LOG_DIR;
  if (!dir) return;
  for (const child of children) {
    try {
      writeFileSync(join(dir, `${child.name}.log`), child.output());
    } catch {
      // a diagnostic only
    }
  }
}

/** Lines of a process's output that are warnings or errors (pino JSON at level >= 40), counted by message. */
export function warnings(output: string): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const line of output.split('\n')) {
    if (!line.startsWith('{')) continue;
    try {
      const entry = JSON.parse(line) as { level?: number; msg?: string; code?: string };
      if ((entry.level ?? 0) < 40) continue;
      const key = `${entry.msg ?? '?'}${entry.code ? ` (${entry.code})` : ''}`;
      counts[key] = (counts[key] ?? 0) + 1;
    } catch {
      // not a log line
    }
  }
  return counts;
}

export const describeCounts = (counts: Record<string, number>) =>
  Object.entries(counts)
    .sort((a, b) => b[1] - a[1])
    .map(([k, n]) => `${k}: ${n}`)
    .join('; ') || 'none';

/** Percentile helpers in seconds, one decimal. */
export const seconds = (ms: number) => Math.round(ms / 100) / 10;
