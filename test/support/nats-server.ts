import { ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { connect, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { eventually } from './eventually';

const NATS_SERVER = process.env.NATS_SERVER_BIN ?? '/usr/sbin/nats-server';

/** Where the kernel picks outgoing connections' source ports (`ip_local_port_range`): never handed out here. */
function ephemeralStart(): number {
  try {
    return Number(readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').split(/\s+/)[0]) || 32_768;
  } catch {
    return 32_768;
  }
}
const LOWEST_PORT = 20_000;
const handedOut = new Set<number>();

/**
 * A free TCP port for a server under test, below the ephemeral range: a port the kernel chose
 * (`listen(0)`) comes from the range outgoing connections also draw from, and one of the suite's
 * many connections took such a port before the server bound it (EADDRINUSE in CI). Random, checked
 * by binding on every address, and never the same twice in one test process.
 */
export async function freePort(): Promise<number> {
  const high = ephemeralStart();
  for (let attempt = 0; attempt < 50; attempt++) {
    const port = LOWEST_PORT + Math.floor(Math.random() * (high - LOWEST_PORT));
    if (handedOut.has(port) || !(await bindable(port))) continue;
    handedOut.add(port);
    return port;
  }
  throw new Error(`no free port found in ${LOWEST_PORT}-${high - 1}`);
}

function bindable(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once('error', () => resolve(false));
    server.listen(port, '0.0.0.0', () => server.close(() => resolve(true)));
  });
}

/** Waits until something accepts TCP connections on the loopback port (10 s unless told). */
export async function waitForPort(port: number, timeoutMs = 10_000): Promise<void> {
  const accepts = () =>
    new Promise<boolean>((resolve) => {
      const socket = connect(port, '127.0.0.1');
      socket.once('connect', () => (socket.destroy(), resolve(true)));
      socket.once('error', () => resolve(false));
    });
  await eventually(accepts, Boolean, { timeoutMs, what: `port ${port} to accept connections` });
}

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
