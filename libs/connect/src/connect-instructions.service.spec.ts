import { DomainRecord, DomainRepository } from '@app/domains';
import { ConnectInstructionsService } from './connect-instructions.service';
import { DomainConnectClient } from './domain-connect.client';
import { ProviderDetector } from './provider-detector.service';

const never = <T>() => new Promise<T>(() => undefined);

describe('ConnectInstructionsService', () => {
  it('answers within the lookup budget when DNS and Domain Connect hang: unknown provider, lookup_failed', async () => {
    const domains = {
      get: async () => ({ hostname: 'shop.example.com' }) as DomainRecord,
    } as unknown as DomainRepository;
    const detector = { detect: () => never() } as unknown as ProviderDetector;
    const dc = { discover: () => never() } as unknown as DomainConnectClient;
    const service = new ConnectInstructionsService(domains, detector, dc, {
      edge: { cnameTarget: 'edge.saas.net', ipv4: ['203.0.113.10'] },
      providerId: 'p',
      serviceId: 's',
      lookupBudgetMs: 50,
    });
    const started = Date.now();
    const out = await service.instructions('ws', 'dom_1', {});
    expect(Date.now() - started).toBeLessThan(1_000);
    expect(out).toMatchObject({
      hostname: 'shop.example.com',
      provider: { id: 'unknown', detected: false },
      method: 'cname',
      records: [{ type: 'CNAME', name: 'shop', value: 'edge.saas.net', ttl: 3600 }],
      domainConnect: { supported: false, reason: 'lookup_failed' },
    });
  });
});
