import { freePort } from './nats-server';

/**
 * Free traffic ports for the edge of an app under test (standalone includes the edge): without
 * them every app would bind 8080/8443 and test files running in parallel would collide.
 */
export async function freeEdgePorts(): Promise<{ EDGE_HTTP_PORT: string; EDGE_HTTPS_PORT: string }> {
  return { EDGE_HTTP_PORT: String(await freePort()), EDGE_HTTPS_PORT: String(await freePort()) };
}
