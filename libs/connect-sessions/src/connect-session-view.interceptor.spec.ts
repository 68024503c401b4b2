import type { Principal } from '@app/auth';
import type { DomainView } from '@app/domains';
import type { CallHandler, ExecutionContext } from '@nestjs/common';
import { firstValueFrom, of } from 'rxjs';
import { ConnectSessionViewInterceptor } from './connect-session-view.interceptor';

const domain: DomainView = {
  id: 'dom_1',
  hostname: 'shop.customer.com',
  apex: false,
  originUrl: 'https://private-origin.saas.example/tenant/42',
  metadata: { plan: 'gold', internalCustomerId: 'cust_9' },
  mode: 'proxy',
  keepHost: false,
  redirectWww: false,
  redirectStatus: 301,
  projectId: 'prj_1',
  status: 'pending',
  statusReason: null,
  monitorStatus: 'dns_not_resolving',
  monitorMessage: 'Add the CNAME record at your registrar',
  dnsRecords: [{ type: 'CNAME', name: 'shop.customer.com', value: 'edge.example', ttl: 3600, purpose: 'traffic' }],
  registrarDns: null,
  certificate: {
    expiresAt: null,
    renewAt: null,
    issuer: null,
    error: null,
    errorCode: null,
    retryAt: null,
    attempts: [],
  },
  verifiedAt: null,
  lastCheckedAt: '2026-11-25T05:25:31.930Z',
  createdAt: '2026-11-25T05:25:31.930Z',
  updatedAt: '2026-11-25T05:25:31.930Z',
};

function answer(kind: Principal['kind'], body: unknown): Promise<unknown> {
  const principal: Principal = { kind, workspaceId: 'ws_1', credentialId: 'c_1' };
  const context = { switchToHttp: () => ({ getRequest: () => ({ principal }) }) } as unknown as ExecutionContext;
  const next: CallHandler = { handle: () => of(body) };
  return firstValueFrom(new ConnectSessionViewInterceptor().intercept(context, next));
}

describe('ConnectSessionViewInterceptor', () => {
  it("a session sees the widget's fields, nothing private to the SaaS", async () => {
    const body = (await answer('connect_session', { domain })) as { domain: Record<string, unknown> };
    expect(Object.keys(body.domain).sort()).toEqual(
      [
        'apex',
        'certificate',
        'dnsRecords',
        'hostname',
        'id',
        'lastCheckedAt',
        'monitorMessage',
        'monitorStatus',
        'registrarDns',
        'status',
        'statusReason',
        'verifiedAt',
      ].sort(),
    );
    const text = JSON.stringify(body);
    for (const secret of ['private-origin', 'gold', 'cust_9', 'prj_1']) expect(text).not.toContain(secret);
  });

  it('keeps the rest of the answer (dns/apply: applied beside the domain)', async () => {
    const applied = { provider: 'cloudflare', written: [], removed: 0 };
    const body = (await answer('connect_session', { applied, domain })) as Record<string, any>;
    expect(body.applied).toEqual(applied);
    expect(body.domain.originUrl).toBeUndefined();
    expect(body.domain.monitorStatus).toBe('dns_not_resolving');
  });

  it('leaves other answers of a session (instructions) and every answer of an API key or OAuth token alone', async () => {
    const instructions = { instructions: { hostname: 'shop.customer.com', records: [] } };
    expect(await answer('connect_session', instructions)).toBe(instructions);
    expect(await answer('api_key', { domain })).toEqual({ domain });
    expect(await answer('oauth_token', { domain })).toEqual({ domain });
  });
});
