import { ApiError, createCustomDomainsClient, unwrap, verifyWebhook } from '@app/sdk';
import {
  DnsServer,
  ORIGIN_URL,
  REGISTRANT,
  TEST_ADMIN_TOKEN,
  TestApp,
  WebhookReceiver,
  domainEnv,
  domainZones,
  purchaseWorkspace,
  startDnsServer,
  startTestApp,
  startWebhookReceiver,
  uniqueDomain,
} from '@test/support';
import type { AddressInfo } from 'node:net';

/** The SDK (libs/sdk) drives the domains, purchases and webhooks flows against a real app on a real port. */
describe('SDK against a running app', () => {
  let t: TestApp;
  let dns: DnsServer;
  let receiver: WebhookReceiver;
  let baseUrl: string;
  let apiKey: string;

  beforeAll(async () => {
    dns = await startDnsServer(domainZones());
    receiver = await startWebhookReceiver();
    t = await startTestApp({ env: { ...domainEnv(dns.address), OUTBOUND_ALLOW_CIDRS: '127.0.0.0/8' } });
    await t.app.listen(0, '127.0.0.1');
    baseUrl = `http://127.0.0.1:${(t.app.getHttpServer().address() as AddressInfo).port}`;
    ({ apiKey } = await purchaseWorkspace(t.server, 'pm_card_visa'));
  });
  afterAll(async () => {
    await t?.close();
    await receiver?.close();
    await dns?.close();
  });

  it('domains: create (with an Idempotency-Key), read, patch, list page by page, typed errors, delete', async () => {
    const sdk = createCustomDomainsClient({ baseUrl, credentials: { apiKey } });
    const hostnames = [1, 2, 3].map((i) => `sdk${i}-${Date.now().toString(36)}.customer-c.com`);
    const sent: string[] = [];
    const created = [];
    for (const hostname of hostnames) {
      const call = sdk.api.POST('/v1/domains', { body: { hostname, originUrl: ORIGIN_URL } });
      const { domain } = await unwrap(call);
      created.push(domain);
      sent.push((await call).response.headers.get('idempotent-replay') ?? 'first');
    }
    expect(sent).toEqual(['first', 'first', 'first']);
    const id = created[0].id;
    const { domain } = await unwrap(sdk.api.GET('/v1/domains/{id}', { params: { path: { id } } }));
    expect(domain.hostname).toBe(hostnames[0]);
    // PATCH without hostname and with projectId null: the calls SPEC allows compile and pass.
    const patched = await unwrap(
      sdk.api.PATCH('/v1/domains/{id}', { params: { path: { id } }, body: { projectId: null, keepHost: true } }),
    );
    expect(patched.domain.keepHost).toBe(true);
    const listed: string[] = [];
    for await (const item of sdk.paginate('/v1/domains', { query: { limit: 1 } })) listed.push(item.id);
    expect(listed.sort()).toEqual(created.map((d) => d.id).sort());
    const missing = await unwrap(sdk.api.GET('/v1/domains/{id}', { params: { path: { id: 'dom_missing' } } })).catch(
      (error: unknown) => error,
    );
    expect(missing).toBeInstanceOf(ApiError);
    expect(missing).toMatchObject({ status: 404, code: 'not_found', requestId: expect.any(String) });
    await unwrap(sdk.api.DELETE('/v1/domains/{id}', { params: { path: { id } } }));
  });

  it('purchases: buy, read, list; a bad input is a typed bad_request', async () => {
    const sdk = createCustomDomainsClient({ baseUrl, credentials: { apiKey } });
    const hostname = uniqueDomain('sdk');
    const { purchase } = await unwrap(
      sdk.api.POST('/v1/domain-purchases', { body: { hostname, registrant: REGISTRANT } }),
    );
    expect(purchase.hostname).toBe(hostname);
    const read = await unwrap(sdk.api.GET('/v1/domain-purchases/{id}', { params: { path: { id: purchase.id } } }));
    expect(read.purchase.id).toBe(purchase.id);
    const ids: string[] = [];
    for await (const item of sdk.paginate('/v1/domain-purchases')) ids.push(item.id);
    expect(ids).toContain(purchase.id);
    const refused = await unwrap(
      sdk.api.POST('/v1/domain-purchases', { body: { hostname, registrant: { ...REGISTRANT, email: 'nope' } } }),
    ).catch((error: unknown) => error);
    expect(refused).toMatchObject({ status: 400, code: 'bad_request' });
  });

  it('webhooks: register an endpoint, receive a signed event, verify it with the SDK, find it in the events', async () => {
    const sdk = createCustomDomainsClient({ baseUrl, credentials: { apiKey } });
    const { endpoint } = await unwrap(
      sdk.api.POST('/v1/webhook-endpoints', { body: { url: `${receiver.url}/sdk`, events: ['domain.created'] } }),
    );
    const hostname = `hook-${Date.now().toString(36)}.customer-c.com`;
    await unwrap(sdk.api.POST('/v1/domains', { body: { hostname, originUrl: ORIGIN_URL } }));
    await receiver.waitFor((all) => all.some((r) => r.path === '/sdk' && r.raw.toString().includes(hostname)));
    const delivery = receiver.received('/sdk').find((r) => r.raw.toString().includes(hostname))!;
    const event = verifyWebhook(delivery.raw, delivery.headers['x-service-signature'] as string, endpoint.secret!);
    expect(event.type).toBe('domain.created');
    const types: string[] = [];
    for await (const item of sdk.paginate('/v1/events', { query: { type: ['domain.created'] } })) types.push(item.type);
    expect(new Set(types)).toEqual(new Set(['domain.created']));
    const got = await unwrap(sdk.api.GET('/v1/events/{id}', { params: { path: { id: event.id } } }));
    expect(got.event.id).toBe(event.id);
  });

  it('OAuth client credentials: fetches a token once and reuses it until it expires', async () => {
    const res = await fetch(`${baseUrl}/admin/workspaces`, {
      method: 'POST',
      headers: { authorization: `Bearer ${TEST_ADMIN_TOKEN}`, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'oauth-sdk' }),
    });
    const workspaceId = ((await res.json()) as { workspace: { id: string } }).workspace.id;
    const client = (await (
      await fetch(`${baseUrl}/admin/workspaces/${workspaceId}/oauth-clients`, {
        method: 'POST',
        headers: { authorization: `Bearer ${TEST_ADMIN_TOKEN}`, 'content-type': 'application/json' },
        body: JSON.stringify({ name: 'sdk', scopes: ['domains:read'] }),
      })
    ).json()) as { client_id: string; client_secret: string };
    let tokenCalls = 0;
    const counting: typeof fetch = (input, init) => {
      if (String(input instanceof Request ? input.url : input).endsWith('/oauth/token')) tokenCalls++;
      return fetch(input, init);
    };
    const sdk = createCustomDomainsClient({
      baseUrl,
      credentials: { clientId: client.client_id, clientSecret: client.client_secret, scope: 'domains:read' },
      fetch: counting,
    });
    expect((await unwrap(sdk.api.GET('/v1/domains'))).domains).toEqual([]);
    expect((await unwrap(sdk.api.GET('/v1/domains'))).domains).toEqual([]);
    expect(tokenCalls).toBe(1);
  });

  it('retries 429 after Retry-After and 503, keeping one Idempotency-Key', async () => {
    const answers = [429, 503];
    const keys: (string | null)[] = [];
    const flaky: typeof fetch = async (input, init) => {
      const request = new Request(input, init);
      keys.push(request.headers.get('idempotency-key'));
      const status = answers.shift();
      if (status)
        return new Response('{"error":"rate_limited","message":"slow down","details":null}', {
          status,
          headers: { 'retry-after': '0' },
        });
      return fetch(request);
    };
    const sdk = createCustomDomainsClient({ baseUrl, credentials: { apiKey }, fetch: flaky });
    const hostname = `retry-${Date.now().toString(36)}.customer-c.com`;
    const { domain } = await unwrap(sdk.api.POST('/v1/domains', { body: { hostname, originUrl: ORIGIN_URL } }));
    expect(domain.hostname).toBe(hostname);
    expect(keys).toHaveLength(3);
    expect(new Set(keys).size).toBe(1);
    expect(keys[0]).toMatch(/^[0-9a-f-]{36}$/);
  });
});
