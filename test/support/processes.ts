import { ChildProcess, spawn } from 'node:child_process';
import { resolve } from 'node:path';
import { openApiProcessEnv } from './openapi-exchanges';

export const REPO_ROOT = resolve(__dirname, '../..');

export interface ServiceProcess {
  child: ChildProcess;
  /** Everything the process printed so far. */
  output(): string;
  /** Resolves with the first capture group of the first line matching `pattern`. */
  waitFor(pattern: RegExp, timeoutMs?: number): Promise<string>;
  /** SIGTERM, then SIGKILL after the grace period; resolves with the exit code. */
  stop(graceMs?: number): Promise<number | null>;
  exited: Promise<number | null>;
}

const running = new Set<ServiceProcess>();

/**
 * Source-mapped stacks cost a process 0.15-0.25 s of CPU at start (every module's map is read and
 * parsed as it loads: 1.25 s without, 1.4-1.5 s with, for a node process) and the suite starts
 * well over a hundred; TEST_SOURCE_MAPS=1 turns them on to read a failure's stack in TypeScript.
 */
const NODE_FLAGS = process.env.TEST_SOURCE_MAPS === '1' ? ['--enable-source-maps'] : [];

/**
 * Starts a built app (`dist/...`) as its own OS process with the given environment. Its HTTP
 * exchanges are checked against the OpenAPI document (OPENAPI_VIOLATIONS_FILE): a violation fails
 * the test that made it.
 */
export function startProcess(script: string, env: Record<string, string>, args: string[] = []): ServiceProcess {
  const child = spawn(process.execPath, [...NODE_FLAGS, resolve(REPO_ROOT, script), ...args], {
    cwd: REPO_ROOT,
    env: {
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? '/tmp',
      LOG_LEVEL: 'warn',
      ...openApiProcessEnv(),
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const listeners = new Set<() => void>();
  const onData = (chunk: Buffer) => {
    output += chunk.toString();
    listeners.forEach((listener) => listener());
  };
  child.stdout?.on('data', onData);
  child.stderr?.on('data', onData);
  const exited = new Promise<number | null>((done) => child.once('exit', (code) => done(code)));
  const proc: ServiceProcess = {
    child,
    exited,
    output: () => output,
    waitFor: (pattern, timeoutMs = 30_000) =>
      new Promise((done, fail) => {
        const check = () => {
          const match = pattern.exec(output);
          if (!match) return;
          cleanup();
          done(match[1] ?? match[0]);
        };
        const timer = setTimeout(() => {
          cleanup();
          fail(new Error(`Timed out waiting for ${pattern} from ${script}; output:\n${output}`));
        }, timeoutMs);
        const onExit = () => {
          cleanup();
          fail(new Error(`${script} exited before printing ${pattern}; output:\n${output}`));
        };
        const cleanup = () => {
          clearTimeout(timer);
          listeners.delete(check);
          child.off('exit', onExit);
        };
        listeners.add(check);
        child.once('exit', onExit);
        check();
      }),
    stop: async (graceMs = 10_000) => {
      if (child.exitCode === null && child.signalCode === null) {
        child.kill('SIGTERM');
        const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
        await exited;
        clearTimeout(timer);
      }
      running.delete(proc);
      return child.exitCode;
    },
  };
  running.add(proc);
  return proc;
}

/** Kills every process a test started (for afterAll, so failures leave nothing behind). */
export async function stopAllProcesses(): Promise<void> {
  await Promise.all([...running].map((p) => p.stop(5_000)));
}

/** The URL a service printed at start (`... http://127.0.0.1:PORT`). */
/** 90 s by default: a process starts slowly on a loaded 2-core machine (the suite runs files in parallel). */
export function waitForUrl(proc: ServiceProcess, timeoutMs = 90_000): Promise<string> {
  return proc.waitFor(/(http:\/\/127\.0\.0\.1:\d+)/, timeoutMs);
}

/**
 * A JSON request to a spawned api process with a bearer token, given up after `timeoutMs` (the
 * client's own patience: an AbortSignal timeout rejects with a TimeoutError).
 */
export async function callApi(
  url: string,
  method: string,
  path: string,
  token: string,
  body?: unknown,
  timeoutMs = 30_000,
): Promise<{ status: number; body: Record<string, any> }> {
  const res = await fetch(`${url}${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
    signal: AbortSignal.timeout(timeoutMs),
  });
  return { status: res.status, body: (await res.json()) as Record<string, any> };
}
