import request from 'supertest';
import { domainZones } from './domain-fixtures';
import { startDnsServer } from './dns-server';
import { eventually } from './eventually';
import { AcmeProxy, startAcmeProxy } from './acme-proxy';
import { Pebble, startPebble } from './pebble';
import { freePort, retryOnPortCollision } from './free-ports';
import { TEST_ADMIN_TOKEN, startTestApp } from './test-app';

/** The edge's name in the certificate tests' zones. */
export const CERTIFICATE_EDGE = 'edge.saas-test.net';
const EDGE = CERTIFICATE_EDGE;

/** The CAs of a stack: the settings that name them to the service, and how to stop them. */
export interface StackIssuers {
  env: Record<string, string>;
  stop(): Promise<void>;
}

/** Starts the CAs once the DNS server and the edge's HTTP port (where HTTP-01 is validated) are known. */
export type IssuersFactory = (ctx: { dnsServer: string; httpPort: number }) => Promise<StackIssuers>;

/** One Pebble standing in for Let's Encrypt. */
const onePebble =
  (validitySeconds?: number): IssuersFactory =>
  async ({ dnsServer, httpPort }) => {
    const pebble = await startPebble({ dnsServer, httpPort, certificateValidityPeriod: validitySeconds });
    return {
      env: {
        ACME_DIRECTORY_URL: pebble.directoryUrl,
        ACME_CA_FILE: pebble.caFile,
        ACME_CAA_IDENTITIES: 'letsencrypt.org', // Pebble stands in for Let's Encrypt
      },
      stop: () => pebble.stop(),
    };
  };

/**
 * Standalone (api + node + edge) against Pebble and a loopback DNS server whose edge name points at
 * 127.0.0.1, with a workspace holding a card. `validitySeconds` shortens Pebble's certificates;
 * `issuers` replaces the one Pebble (several CAs, proxies in front of them).
 */
export async function startCertificateStack(
  options: {
    validitySeconds?: number;
    env?: Record<string, string>;
    waitTimeoutMs?: number;
    issuers?: IssuersFactory;
  } = {},
) {
  const dns = await startDnsServer({ ...domainZones(), [EDGE]: [{ type: 'A', data: '127.0.0.1' }] });
  const ports = { http: 0, https: 0 };
  const start = async () => {
    [ports.http, ports.https] = [await freePort(), await freePort()];
    // Pebble validates HTTP-01 on the edge's HTTP port, so it is chosen before either starts.
    const makeIssuers = options.issuers ?? onePebble(options.validitySeconds);
    const issuers = await makeIssuers({ dnsServer: dns.address, httpPort: ports.http });
    try {
      const t = await startTestApp({
        env: {
          DNS_RESOLVERS: dns.address,
          EDGE_CNAME_TARGET: EDGE,
          EDGE_IPV4: '127.0.0.1',
          EDGE_HTTP_PORT: String(ports.http),
          EDGE_HTTPS_PORT: String(ports.https),
          ...issuers.env,
          MONITOR_INTERVAL_SECONDS: '2',
          ...options.env,
        },
      });
      return { issuers, t };
    } catch (error) {
      await issuers.stop().catch(() => undefined);
      throw error;
    }
  };
  const { issuers, t } = await retryOnPortCollision(start).catch(async (error) => {
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
    await issuers.stop().catch(() => undefined);
    await dns.close();
  };
  /** A second workspace with a card, for fairness tests. */
  const workspace = async (name: string) => {
    const created = await request(t.server)
      .post('/admin/workspaces')
      .set('authorization', `Bearer ${TEST_ADMIN_TOKEN}`)
      .send({ name, paymentMethod: 'pm_card_visa' })
      .expect(201);
    return { authorization: `Bearer ${created.body.apiKey as string}` };
  };
  return { dns, issuers, t, auth, httpsPort, waitFor, workspace, close };
}

export type CertificateStack = Awaited<ReturnType<typeof startCertificateStack>>;

/** One CA of `proxiedPebbles`: a Pebble behind the ACME proxy (ARI, profiles, injected problems). */
export interface ProxiedCaSpec {
  name: string;
  caaIdentities: string[];
  validitySeconds?: number;
  /** The CA requires External Account Binding; `wrong` configures the service with a bad HMAC key. */
  eab?: 'right' | 'wrong';
  /** Validate HTTP-01 on another port than the edge's (one nothing answers: every validation fails). */
  validationPort?: number;
  profiles?: Record<string, string>;
  /** Extra fields of this issuer's ACME_ISSUERS entry (profile, limits, ariRenewalsExempt). */
  settings?: Record<string, unknown>;
}

const EAB_KID = 'kid-1';
const EAB_KEY = 'zWNDZM6eQGHWpSRTPal5eIUYFTu7EajVIoguysqZ9wG44nMEtx3MUAsUDkMTQ12W';

/** Several CAs, each a Pebble behind its own proxy, in the order of `specs`; `cas[name]` reaches each proxy. */
export function proxiedPebbles(specs: ProxiedCaSpec[], cas: Record<string, AcmeProxy>): IssuersFactory {
  return async ({ dnsServer, httpPort }) => {
    const started: Array<{ pebble: Pebble; proxy?: AcmeProxy }> = [];
    const stop = async () => {
      for (const { pebble, proxy } of started) {
        await proxy?.stop().catch(() => undefined);
        await pebble.stop().catch(() => undefined);
      }
    };
    try {
      const issuers = [];
      for (const spec of specs) {
        const pebble = await startPebble({
          dnsServer,
          httpPort: spec.validationPort ?? httpPort,
          certificateValidityPeriod: spec.validitySeconds,
          ...(spec.eab ? { externalAccountBindingRequired: true, eabKeys: { [EAB_KID]: EAB_KEY } } : {}),
        });
        started.push({ pebble });
        const proxy = await startAcmeProxy({ upstream: pebble, profiles: spec.profiles });
        started[started.length - 1].proxy = proxy;
        cas[spec.name] = proxy;
        const hmacKey = spec.eab === 'wrong' ? EAB_KEY.split('').reverse().join('') : EAB_KEY;
        issuers.push({
          name: spec.name,
          directoryUrl: proxy.directoryUrl,
          caFile: proxy.caFile,
          caaIdentities: spec.caaIdentities,
          ...(spec.eab ? { eabKid: EAB_KID, eabHmacKey: hmacKey } : {}),
          ...spec.settings,
        });
      }
      return { env: { ACME_ISSUERS: JSON.stringify(issuers) }, stop };
    } catch (error) {
      await stop();
      throw error;
    }
  };
}
