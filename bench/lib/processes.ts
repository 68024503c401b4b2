import { ChildProcess, spawn } from 'node:child_process';
import { REPO_ROOT } from './paths';

/** A process writing a CPU profile (BENCH_NODE_ARGS='--cpu-prof ...') needs longer to exit on a busy machine. */
const STOP_GRACE_MS = process.env.BENCH_NODE_ARGS?.includes('--cpu-prof') ? 60_000 : 5_000;

export interface Child {
  name: string;
  child: ChildProcess;
  output(): string;
  /** Resolves with the first capture group (or the match) of `pattern` in the output. */
  waitFor(pattern: RegExp, timeoutMs: number): Promise<string>;
  /** SIGTERM, SIGKILL after `graceMs`. */
  stop(graceMs?: number): Promise<void>;
  exited: Promise<void>;
}

const live = new Set<Child>();

// Whatever happens to this process, the processes it started go with it.
process.once('exit', () => live.forEach((c) => c.child.kill('SIGKILL')));

/** Starts a Node script as its own process; its stdin is a pipe, so it can notice this process dying. */
export function startScript(name: string, script: string, env: Record<string, string>, nodeArgs: string[] = []): Child {
  const child = spawn(process.execPath, [...nodeArgs, script], {
    cwd: REPO_ROOT,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/tmp', LOG_LEVEL: 'warn', ...env },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let output = '';
  const listeners = new Set<() => void>();
  const onData = (chunk: Buffer) => {
    output = (output + chunk.toString()).slice(-100_000);
    listeners.forEach((l) => l());
  };
  child.stdout?.on('data', onData);
  child.stderr?.on('data', onData);
  const exited = new Promise<void>((done) => child.once('exit', () => done()));
  const proc: Child = {
    name,
    child,
    exited,
    output: () => output,
    waitFor: (pattern, timeoutMs) =>
      new Promise((done, fail) => {
        const check = () => {
          const match = pattern.exec(output);
          if (match) finish(() => done(match[1] ?? match[0]));
        };
        const timer = setTimeout(
          () => finish(() => fail(new Error(`${name}: no ${pattern} within ${timeoutMs} ms; output:\n${output}`))),
          timeoutMs,
        );
        const onExit = () => finish(() => fail(new Error(`${name} exited before ${pattern}; output:\n${output}`)));
        const finish = (then: () => void) => {
          clearTimeout(timer);
          listeners.delete(check);
          child.off('exit', onExit);
          then();
        };
        listeners.add(check);
        child.once('exit', onExit);
        check();
      }),
    stop: async (graceMs = STOP_GRACE_MS) => {
      if (child.exitCode === null && child.signalCode === null) {
        child.kill('SIGTERM');
        const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
        await exited;
        clearTimeout(timer);
      }
      live.delete(proc);
    },
  };
  void exited.then(() => live.delete(proc));
  live.add(proc);
  return proc;
}

/** Stops every process started here, gracefully first. */
export async function stopAll(graceMs = STOP_GRACE_MS): Promise<void> {
  await Promise.all([...live].map((c) => c.stop(graceMs)));
}
