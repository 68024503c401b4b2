import { ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { eventually } from './eventually';
import { freePort } from './free-ports';

const PROMETHEUS = process.env.PROMETHEUS_BIN ?? '/usr/bin/prometheus';

export interface PrometheusAlert {
  labels: Record<string, string>;
  state: 'pending' | 'firing';
  activeAt: string;
  value: string;
}

export interface Prometheus {
  url: string;
  /** Active alerts (pending and firing) as /api/v1/alerts lists them. */
  alerts(): Promise<PrometheusAlert[]>;
  /** An instant query's result vector. */
  query(expr: string): Promise<{ metric: Record<string, string>; value: [number, string] }[]>;
  /** Scrape targets with their health (`up`, `down`, `unknown`). */
  targets(): Promise<{ labels: Record<string, string>; health: string; lastError: string }[]>;
  /** Everything it printed (its log). */
  output(): string;
  stop(): Promise<void>;
}

/**
 * Debian's Prometheus on a free loopback port with a temporary storage directory, scraping
 * `targets` (job name to `host:port` addresses) and evaluating `rulesFile`, every `intervalSeconds`.
 */
export async function startPrometheus(options: {
  targets: Record<string, string[]>;
  rulesFile: string;
  intervalSeconds: number;
}): Promise<Prometheus> {
  const dir = mkdtempSync(join(tmpdir(), 'prometheus-'));
  const port = await freePort();
  const interval = `${options.intervalSeconds}s`;
  const config = {
    global: { scrape_interval: interval, scrape_timeout: interval, evaluation_interval: interval },
    rule_files: [options.rulesFile],
    scrape_configs: Object.entries(options.targets).map(([job, addresses]) => ({
      job_name: job,
      static_configs: [{ targets: addresses, labels: { component: job } }],
    })),
  };
  writeFileSync(join(dir, 'prometheus.yml'), JSON.stringify(config));
  let output = '';
  const child: ChildProcess = spawn(
    PROMETHEUS,
    [
      `--config.file=${join(dir, 'prometheus.yml')}`,
      `--storage.tsdb.path=${join(dir, 'data')}`,
      `--web.listen-address=127.0.0.1:${port}`,
      '--log.level=warn',
    ],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    await exited;
    rmSync(dir, { recursive: true, force: true });
  };
  const url = `http://127.0.0.1:${port}`;
  const api = async <T>(path: string): Promise<T> => {
    const res = await fetch(`${url}${path}`, { signal: AbortSignal.timeout(5_000) });
    const body = (await res.json()) as { status: string; data: T; error?: string };
    if (body.status !== 'success') throw new Error(`Prometheus ${path}: ${body.error}`);
    return body.data;
  };
  try {
    await eventually(
      async () =>
        child.exitCode === null &&
        (await fetch(`${url}/-/ready`).then(
          (r) => r.ok,
          () => false,
        )),
      Boolean,
      { timeoutMs: 30_000, everyMs: 200, what: `Prometheus ready at ${url}` },
    );
  } catch (error) {
    await stop();
    throw new Error(`${(error as Error).message}\nPrometheus printed:\n${output}`);
  }
  return {
    url,
    output: () => output,
    stop,
    alerts: async () => (await api<{ alerts: PrometheusAlert[] }>('/api/v1/alerts')).alerts,
    query: async (expr) =>
      (
        await api<{ result: { metric: Record<string, string>; value: [number, string] }[] }>(
          `/api/v1/query?query=${encodeURIComponent(expr)}`,
        )
      ).result,
    targets: async () =>
      (
        await api<{ activeTargets: { labels: Record<string, string>; health: string; lastError: string }[] }>(
          '/api/v1/targets',
        )
      ).activeTargets,
  };
}
