import request from 'supertest';
import { domainZones } from './domain-fixtures';
import { startDnsServer } from './dns-server';
import { eventually } from './eventually';
import { startPebble } from './pebble';
import { freePort, retryOnPortCollision } from './free-ports';
import { TEST_ADMIN_TOKEN, startTestApp } from './test-app';

/** The edge's name in the certificate tests' zones. */
export const CERTIFICATE_EDGE = 'edge.saas-test.net';
const EDGE = CERTIFICATE_EDGE;

/**
 * Standalone (api + node + edge) against Pebble and a loopback DNS server whose edge name points at
 * 127.0.0.1, with a workspace holding a card. `validitySeconds` shortens Pebble's certificates.
 */
export async function startCertificateStack(
  options: { validitySeconds?: number; env?: Record<string, string>; waitTimeoutMs?: number } = {},
) {
  const dns = await startDnsServer({ ...domainZones(), [EDGE]: [{ type: 'A', data: '127.0.0.1' }] });
  const ports = { http: 0, https: 0 };
  const start = async () => {
    [ports.http, ports.https] = [await freePort(), await freePort()];
    // Pebble validates HTTP-01 on the edge's HTTP port, so it is chosen before either starts.
    const pebble = await startPebble({
      dnsServer: dns.address,
      httpPort: ports.http,
      certificateValidityPeriod: options.validitySeconds,
    });
    try {
      const t = await startTestApp({
        env: {
          DNS_RESOLVERS: dns.address,
          EDGE_CNAME_TARGET: EDGE,
          EDGE_IPV4: '127.0.0.1',
          EDGE_HTTP_PORT: String(ports.http),
          EDGE_HTTPS_PORT: String(ports.https),
          ACME_DIRECTORY_URL: pebble.directoryUrl,
          ACME_CA_FILE: pebble.caFile,
          ACME_CAA_IDENTITIES: 'letsencrypt.org', // Pebble stands in for Let's Encrypt
          MONITOR_INTERVAL_SECONDS: '2',
          ...options.env,
        },
      });
      return { pebble, t };
    } catch (error) {
      await pebble.stop().catch(() => undefined);
      throw error;
    }
  };
  const { pebble, t } = await retryOnPortCollision(start).catch(async (error) => {
    await dns.close();
    throw error;
  });
  const httpsPort = ports.https;
  const ws = await request(t.server)
    .post('/admin/workspaces')
    .set('authorization', `Bearer ${TEST_ADMIN_TOKEN}`)
    .send({ name: 'certificates', paymentMethod: 'pm_card_visa' })
    .expect(201);
  const auth = { authorization: `Bearer ${ws.body.apiKey as string}` };
  /** Polls the domain until `done` holds; throws with its last state after `timeoutMs`. */
  const waitFor = (
    id: string,
    done: (d: Record<string, any>) => boolean,
    timeoutMs = options.waitTimeoutMs ?? 40_000,
  ) =>
    eventually(
      async () =>
        (await request(t.server).get(`/v1/domains/${id}`).set(auth).expect(200)).body.domain as Record<string, any>,
      done,
      { timeoutMs, everyMs: 250, what: `domain ${id} to reach the awaited state` },
    );
  const close = async () => {
    await t.close();
    await pebble.stop().catch(() => undefined);
    await dns.close();
  };
  return { dns, pebble, t, auth, httpsPort, waitFor, close };
}

export type CertificateStack = Awaited<ReturnType<typeof startCertificateStack>>;
