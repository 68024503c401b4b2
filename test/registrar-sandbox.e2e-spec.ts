import {
  Registrant,
  RegistrarRefusedError,
  SANDBOX_DEFAULT_DNS,
  SANDBOX_DEFAULT_NAMESERVERS,
  SandboxRegistrar,
} from '@app/registrar';
import { ProviderModule, startProviderModule } from './fakes';

const registrant: Registrant = {
  firstName: 'Ada',
  lastName: 'Lovelace',
  email: 'ada@example.com',
  phone: '+44.2071234567',
  address1: '12 St James Square',
  city: 'London',
  stateOrProvince: 'London',
  postalCode: 'SW1Y 4JH',
  country: 'GB',
};

async function refusal(promise: Promise<unknown>): Promise<RegistrarRefusedError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(RegistrarRefusedError);
  return error as RegistrarRefusedError;
}

describe('Sandbox registrar (PostgreSQL-backed)', () => {
  let env: ProviderModule;
  beforeAll(async () => {
    env = await startProviderModule();
  });
  afterAll(() => env?.close());

  const register = (hostname: string, years = 1, whoisPrivacy = true) =>
    env.registrar.register({ hostname, years, registrant, whoisPrivacy });

  it('is the default registrar', () => {
    expect(env.registrar).toBeInstanceOf(SandboxRegistrar);
    expect(env.registrar.name).toBe('sandbox');
  });

  it('answers availability, privacy support and prices from its TLD table', async () => {
    await expect(env.registrar.check('fresh-name.com')).resolves.toEqual({
      hostname: 'fresh-name.com',
      available: true,
      whoisPrivacySupported: true,
    });
    await expect(env.registrar.check('Fresh-Name.US')).resolves.toEqual({
      hostname: 'fresh-name.us',
      available: true,
      whoisPrivacySupported: false,
    });
    expect((await env.registrar.check('shop.co.uk')).whoisPrivacySupported).toBe(false);
    expect((await env.registrar.check('takenname.com')).available).toBe(false);
    expect((await env.registrar.check('name.unknowntld')).available).toBe(false);
    expect((await env.registrar.check('www.sub.example.com')).available).toBe(false);
    expect((await env.registrar.check('refuse-me.io')).available).toBe(true);

    await expect(env.registrar.registrationPrice('x.com', 1)).resolves.toEqual({
      wholesaleCents: 1098,
      currency: 'USD',
    });
    await expect(env.registrar.registrationPrice('x.com', 3)).resolves.toEqual({
      wholesaleCents: 3294,
      currency: 'USD',
    });
    await expect(env.registrar.renewalPrice('x.io', 2)).resolves.toEqual({ wholesaleCents: 10596, currency: 'USD' });
    expect((await refusal(env.registrar.registrationPrice('x.unknowntld', 1))).registrarCode).toBe('2030280');
    expect((await refusal(env.registrar.registrationPrice('x.com', 11))).reason).toMatch(/between 1 and 10/);
    await refusal(env.registrar.registrationPrice('x.com', 0));
  });

  it('registers with the parking defaults, then reports the name as taken and refuses a second registration', async () => {
    const before = Date.now();
    const done = await register('first-buy.com', 2);
    expect(done.registrarDomainId).toMatch(/^\d+$/);
    const expected = new Date(before);
    expected.setUTCFullYear(expected.getUTCFullYear() + 2);
    expect(Math.abs(done.expiresAt.getTime() - expected.getTime())).toBeLessThan(60_000);

    expect((await env.registrar.check('first-buy.com')).available).toBe(false);
    await expect(env.registrar.findRegistration('first-buy.com')).resolves.toEqual(done);
    await expect(env.registrar.findRegistration('never-bought.com')).resolves.toBeUndefined();
    await expect(env.registrar.getDnsRecords('first-buy.com')).resolves.toEqual(SANDBOX_DEFAULT_DNS);

    const again = await refusal(register('first-buy.com'));
    expect(again.reason).toMatch(/not available/);
    expect(again.registrarCode).toBe('3019166');
  });

  it('refuses taken*, refuse*, unknown TLDs and privacy where the registry forbids it', async () => {
    expect((await refusal(register('takenforever.com'))).reason).toMatch(/not available/);
    const refused = await refusal(register('refuse-this.net'));
    expect(refused.reason).toMatch(/registrant contact/);
    expect(refused.registrarCode).toBeDefined();
    await refusal(register('anything.unknowntld'));
    expect((await refusal(register('private.us', 1, true))).reason).toMatch(/WHOIS privacy/);
    await expect(register('public.us', 1, false)).resolves.toBeDefined();
    await expect(env.registrar.findRegistration('refuse-this.net')).resolves.toBeUndefined();
    await expect(env.registrar.findRegistration('private.us')).resolves.toBeUndefined();
  });

  it('registers a hostname once when two nodes race for it', async () => {
    const other = await env.restart();
    try {
      const results = await Promise.allSettled([
        register('race-me.dev'),
        other.registrar.register({ hostname: 'race-me.dev', years: 1, registrant, whoisPrivacy: true }),
      ]);
      expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
      const rejected = results.find((r) => r.status === 'rejected');
      expect(rejected?.reason).toBeInstanceOf(RegistrarRefusedError);
      const rows = await env.db.query('select count(*)::int as n from sandbox_registrations where hostname = $1', [
        'race-me.dev',
      ]);
      expect(rows[0].n).toBe(1);
    } finally {
      await other.close();
    }
  });

  it('keeps registrations across a restart (another process sees them), registrant stored verbatim', async () => {
    const done = await register('survives.app');
    const restarted = await env.restart();
    try {
      await expect(restarted.registrar.findRegistration('survives.app')).resolves.toEqual(done);
    } finally {
      await restarted.close();
    }
    const [row] = await env.db.query('select registrant from sandbox_registrations where hostname = $1', [
      'survives.app',
    ]);
    expect(row.registrant).toEqual(registrant);
  });

  it('renews from the current expiry, up to ten years out', async () => {
    const done = await register('renew-me.org', 1);
    const renewed = await env.registrar.renew('renew-me.org', 3);
    const expected = new Date(done.expiresAt);
    expected.setUTCFullYear(expected.getUTCFullYear() + 3);
    expect(renewed.expiresAt.toISOString()).toBe(expected.toISOString());
    expect(renewed.registrarDomainId).toBe(done.registrarDomainId);
    expect((await refusal(env.registrar.renew('renew-me.org', 7))).reason).toMatch(/10-year maximum/);
    expect((await refusal(env.registrar.renew('not-mine.org', 1))).registrarCode).toBe('2019166');
  });

  it('replaces DNS records, refuses them under custom nameservers, and restores defaults with no nameservers', async () => {
    await register('dns-play.xyz');
    const records = [
      { type: 'CNAME' as const, name: 'www', value: 'edge.example.net', ttl: 300 },
      { type: 'MX' as const, name: '@', value: 'mx.mail.example', ttl: 1800, priority: 10 },
      { type: 'TXT' as const, name: '@', value: 'v=spf1 -all', ttl: 3600 },
    ];
    await env.registrar.setDnsRecords('dns-play.xyz', records);
    await expect(env.registrar.getDnsRecords('dns-play.xyz')).resolves.toEqual(records);
    await env.registrar.setDnsRecords('dns-play.xyz', []);
    await expect(env.registrar.getDnsRecords('dns-play.xyz')).resolves.toEqual([]);
    await env.registrar.setDnsRecords('dns-play.xyz', records);

    expect((await env.registrar.liveDetails('dns-play.xyz')).nameservers).toEqual(SANDBOX_DEFAULT_NAMESERVERS);
    await env.registrar.setNameservers('dns-play.xyz', ['NS1.Example-DNS.net.', 'ns2.example-dns.net']);
    const live = await env.registrar.liveDetails('dns-play.xyz');
    expect(live).toMatchObject({
      registrar: 'sandbox',
      status: 'active',
      usingRegistrarDns: false,
      nameservers: ['ns1.example-dns.net', 'ns2.example-dns.net'],
      whoisPrivacy: true,
      locked: true,
    });
    expect((await refusal(env.registrar.getDnsRecords('dns-play.xyz'))).reason).toMatch(/custom nameservers/);
    await refusal(env.registrar.setDnsRecords('dns-play.xyz', []));

    const bad = await refusal(env.registrar.setNameservers('dns-play.xyz', ['ns1.good.net', 'refuse.ns.example']));
    expect(bad.reason).toMatch(/refuse\.ns\.example/);
    await refusal(env.registrar.setNameservers('dns-play.xyz', ['ns.nowhere.invalid']));
    expect((await env.registrar.liveDetails('dns-play.xyz')).nameservers).toEqual([
      'ns1.example-dns.net',
      'ns2.example-dns.net',
    ]);

    await env.registrar.setNameservers('dns-play.xyz', []);
    expect(await env.registrar.liveDetails('dns-play.xyz')).toMatchObject({
      usingRegistrarDns: true,
      nameservers: SANDBOX_DEFAULT_NAMESERVERS,
    });
    await expect(env.registrar.getDnsRecords('dns-play.xyz')).resolves.toEqual(records);
  });

  it('refuses DNS, nameservers and details of domains it does not hold', async () => {
    await refusal(env.registrar.getDnsRecords('stranger.com'));
    await refusal(env.registrar.setDnsRecords('stranger.com', []));
    await refusal(env.registrar.setNameservers('stranger.com', []));
    expect((await refusal(env.registrar.liveDetails('stranger.com'))).registrarCode).toBe('2019166');
  });
});
