import { readFileSync } from 'node:fs';
import { connect, createServer } from 'node:net';
import { eventually } from './eventually';

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

/**
 * Free traffic ports for the edge of an app under test (standalone includes the edge): without
 * them every app would bind 8080/8443 and test files running in parallel would collide.
 */
export async function freeEdgePorts(): Promise<{ EDGE_HTTP_PORT: string; EDGE_HTTPS_PORT: string }> {
  return { EDGE_HTTP_PORT: String(await freePort()), EDGE_HTTPS_PORT: String(await freePort()) };
}

/**
 * Runs `start` again (up to `attempts` times) when it fails because a port it was handed got taken
 * between `freePort()` and the listen: another test process, or an outgoing connection's ephemeral
 * source port, may claim it in that window. `start` must pick fresh ports on each call and clean up
 * after itself when it throws.
 */
export async function retryOnPortCollision<T>(start: () => Promise<T>, attempts = 3): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await start();
    } catch (error) {
      if (attempt >= attempts || !isAddressInUse(error)) throw error;
    }
  }
}

function isAddressInUse(error: unknown): boolean {
  return (error as NodeJS.ErrnoException | undefined)?.code === 'EADDRINUSE';
}
