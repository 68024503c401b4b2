import { ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort, waitForPort } from './free-ports';

const NATS_SERVER = process.env.NATS_SERVER_BIN ?? '/usr/sbin/nats-server';

export interface PrivateNats {
  url: string;
  /** SIGKILL, keeping the store, so `start()` brings the same server back. */
  kill(): Promise<void>;
  /** Starts it again on the same port and store (after `kill()`). */
  start(): Promise<void>;
  stop(): Promise<void>;
}

/** A NATS server with JetStream of a test's own, on a free loopback port, so the test may kill it. */
export async function startPrivateNats(): Promise<PrivateNats> {
  const port = await freePort();
  const storeDir = mkdtempSync(join(tmpdir(), 'nats-'));
  let child: ChildProcess | undefined;
  let exited = Promise.resolve();
  const start = async () => {
    const proc = spawn(NATS_SERVER, ['-a', '127.0.0.1', '-p', String(port), '-js', '-sd', storeDir], {
      stdio: 'ignore',
    });
    child = proc;
    exited = new Promise<void>((resolve) => proc.once('exit', () => resolve()));
    await waitForPort(port);
  };
  const kill = async () => {
    if (child && child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    await exited;
  };
  await start();
  return {
    url: `nats://127.0.0.1:${port}`,
    kill,
    start,
    stop: async () => {
      await kill();
      rmSync(storeDir, { recursive: true, force: true });
    },
  };
}
