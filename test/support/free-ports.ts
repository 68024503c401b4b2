import { freePort } from './nats-server';

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
