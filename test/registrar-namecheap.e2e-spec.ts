import {
  NamecheapRegistrar,
  Registrant,
  RegistrarRefusedError,
  RegistrarUnavailableError,
  Registrar,
} from '@app/registrar';
import { FakeNamecheap, ProviderModule, startNamecheapServer, startProviderModule, failure } from './fakes';

const registrant: Registrant = {
  firstName: 'Grace',
  lastName: 'Hopper',
  email: 'grace@example.com',
  phone: '+1.6613102107',
  address1: '8939 S. Cross Blvd',
  address2: 'Suite 400',
  city: 'Los Angeles',
  stateOrProvince: 'CA',
  postalCode: '90045',
  country: 'US',
  organization: 'Navy & Co',
};

describe('Namecheap registrar against a fake speaking its XML API', () => {
  let fake: FakeNamecheap;
  let env: ProviderModule;
  let registrar: Registrar;

  beforeAll(async () => {
    fake = await startNamecheapServer();
    env = await startProviderModule({ ...fake.env, NAMECHEAP_TIMEOUT_MS: '400' });
    registrar = env.registrar;
  });
  afterAll(async () => {
    await env?.close();
    await fake?.close();
  });
  beforeEach(() => fake.requests.splice(0));

  const register = (hostname: string, years = 1, whoisPrivacy = true, who: Registrant = registrant) =>
    registrar.register({ hostname, years, registrant: who, whoisPrivacy });
  const last = (command: string) => [...fake.requests].reverse().find((r) => r.command === command)!;

  it('is chosen by REGISTRAR=namecheap and sends the global parameters as a form POST', async () => {
    expect(registrar).toBeInstanceOf(NamecheapRegistrar);
    expect(registrar.name).toBe('namecheap');
    await registrar.check('hello-world.com');
    const sent = last('namecheap.domains.check');
    expect(sent.method).toBe('POST');
    expect(sent.contentType).toBe('application/x-www-form-urlencoded');
    expect(sent.params).toEqual({
      ApiUser: 'apiexample',
      ApiKey: '56b4c87ef4fd49cb96d915c0db68194',
      UserName: 'apiexample',
      ClientIp: '192.0.2.15',
      Command: 'namecheap.domains.check',
      DomainList: 'hello-world.com',
    });
  });

  it('checks availability: taken, premium and unsupported TLDs are unavailable, privacy per TLD', async () => {
    await expect(registrar.check('Hello-World.COM')).resolves.toEqual({
      hostname: 'hello-world.com',
      available: true,
      whoisPrivacySupported: true,
    });
    expect((await registrar.check('takenname.net')).available).toBe(false);
    expect((await registrar.check('premiumname.xyz')).available).toBe(false);
    await expect(registrar.check('name.unknowntld')).resolves.toMatchObject({ available: false });
    await expect(registrar.check('somebody.us')).resolves.toEqual({
      hostname: 'somebody.us',
      available: true,
      whoisPrivacySupported: false,
    });
    fake.requests.splice(0);
    expect((await registrar.check('www.sub.example.com')).available).toBe(false);
    expect(fake.requests).toHaveLength(0);
  });

  it('prices registrations and renewals from getPricing in exact cents, fee included, for the right term', async () => {
    // .com: 10.28/yr for one year, 10 cents less per extra year, plus the 0.18 ICANN fee per year.
    await expect(registrar.registrationPrice('x.com', 1)).resolves.toEqual({ wholesaleCents: 1046, currency: 'USD' });
    await expect(registrar.registrationPrice('x.com', 3)).resolves.toEqual({ wholesaleCents: 3078, currency: 'USD' });
    await expect(registrar.renewalPrice('x.io', 2)).resolves.toEqual({ wholesaleCents: 10576, currency: 'USD' });
    expect(last('namecheap.users.getPricing').params).toMatchObject({
      ProductType: 'DOMAIN',
      ProductCategory: 'DOMAINS',
      ActionName: 'RENEW',
      ProductName: 'IO',
    });
    fake.account.prices.com.register = '11.49';
    await expect(registrar.registrationPrice('x.com', 1)).resolves.toEqual({ wholesaleCents: 1167, currency: 'USD' });
    const refused = await failure(registrar.registrationPrice('x.unknowntld', 1), RegistrarRefusedError);
    expect(refused.reason).toMatch(/no register price/);
  });

  it('registers with the registrant forwarded verbatim as all four contacts, and privacy flags', async () => {
    const done = await register('grace-hopper.com', 2);
    const created = last('namecheap.domains.create').params;
    for (const role of ['Registrant', 'Tech', 'Admin', 'AuxBilling']) {
      expect(created).toMatchObject({
        [`${role}FirstName`]: 'Grace',
        [`${role}LastName`]: 'Hopper',
        [`${role}Address1`]: '8939 S. Cross Blvd',
        [`${role}Address2`]: 'Suite 400',
        [`${role}City`]: 'Los Angeles',
        [`${role}StateProvince`]: 'CA',
        [`${role}PostalCode`]: '90045',
        [`${role}Country`]: 'US',
        [`${role}Phone`]: '+1.6613102107',
        [`${role}EmailAddress`]: 'grace@example.com',
        [`${role}OrganizationName`]: 'Navy & Co',
      });
    }
    expect(created).toMatchObject({
      DomainName: 'grace-hopper.com',
      Years: '2',
      AddFreeWhoisguard: 'yes',
      WGEnabled: 'yes',
    });
    const stored = fake.account.domains.get('grace-hopper.com')!;
    expect(done.registrarDomainId).toBe(String(stored.id));
    const expected = new Date(stored.expires);
    expected.setUTCHours(0, 0, 0, 0);
    expect(done.expiresAt.toISOString()).toBe(expected.toISOString());
    expect(stored.whoisguard).toBe(true);

    const { address2: _a, organization: _o, ...minimal } = registrant;
    await register('plain-contact.us', 1, false, minimal);
    const plain = last('namecheap.domains.create').params;
    expect(plain).toMatchObject({ AddFreeWhoisguard: 'no', WGEnabled: 'no' });
    expect(Object.keys(plain).filter((k) => /Address2|OrganizationName/.test(k))).toEqual([]);
  });

  it('maps registration refusals with the registrar text and number', async () => {
    const taken = await failure(register('takenalready.com'), RegistrarRefusedError);
    expect(taken).toMatchObject({
      registrarCode: '3019166',
      reason: 'Domain takenalready.com is not available for registration',
    });
    const again = await failure(register('grace-hopper.com'), RegistrarRefusedError);
    expect(again.registrarCode).toBe('3019166');
    const refused = await failure(register('refuse-me.net'), RegistrarRefusedError);
    expect(refused).toMatchObject({ registrarCode: '3031510', reason: expect.stringMatching(/postal code/) });
    const badPhone = await failure(
      register('bad-phone.org', 1, true, { ...registrant, phone: '555-1234' }),
      RegistrarRefusedError,
    );
    expect(badPhone.reason).toMatch(/Phone number is invalid/);
    expect((await failure(register('name.unknowntld'), RegistrarRefusedError)).registrarCode).toBe('2030280');

    fake.requests.splice(0);
    const privacy = await failure(register('private-please.us', 1, true), RegistrarRefusedError);
    expect(privacy.reason).toMatch(/WHOIS privacy is not available for \.us/);
    expect(fake.requests).toHaveLength(0);
  });

  it.each([
    ['an internal failure (4xxxxxx)', '4023166', 'Error occured while adding domain'],
    ['an unhandled exception (5xxxxxx)', '5050900', 'Unhandled exceptions'],
    ['an unknown provider answer', '3050900', 'Unknown error from Enom'],
  ])('treats %s as unavailable, not refused', async (_what, number, text) => {
    fake.failNext('namecheap.domains.create', { kind: 'error', number, text });
    const error = await failure(register('transient-case.com'), RegistrarUnavailableError);
    expect(error.message).toContain(number);
  });

  it('reports an unconfirmed (non-real-time) registration as unavailable; recovery then finds it', async () => {
    await failure(register('nonrealtime-name.com'), RegistrarUnavailableError);
    await expect(registrar.findRegistration('nonrealtime-name.com')).resolves.toMatchObject({
      registrarDomainId: String(fake.account.domains.get('nonrealtime-name.com')!.id),
    });
  });

  it('findRegistration: held → registration, not found / not ours → undefined, failures → thrown', async () => {
    const done = await register('find-me.org');
    await expect(registrar.findRegistration('find-me.org')).resolves.toEqual(done);
    await expect(registrar.findRegistration('never-registered.org')).resolves.toBeUndefined();
    fake.failNext('namecheap.domains.getInfo', {
      kind: 'error',
      number: '2016166',
      text: 'Domain is not associated with your account',
    });
    await expect(registrar.findRegistration('find-me.org')).resolves.toBeUndefined();
    // A registrar that cannot answer must never be read as "not registered".
    fake.failNext('namecheap.domains.getInfo', { kind: 'error', number: '5050900', text: 'Unhandled exceptions' });
    await failure(registrar.findRegistration('find-me.org'), RegistrarUnavailableError);
    fake.failNext('namecheap.domains.getInfo', { kind: 'status', status: 502 });
    await failure(registrar.findRegistration('find-me.org'), RegistrarUnavailableError);
  });

  it('renews from the registrar expiry and refuses what the registrar refuses', async () => {
    const done = await register('renew-this.dev', 1);
    const renewed = await registrar.renew('renew-this.dev', 2);
    const expected = new Date(fake.account.domains.get('renew-this.dev')!.expires);
    expected.setUTCMilliseconds(0);
    expect(renewed.expiresAt.toISOString()).toBe(expected.toISOString());
    expect(renewed.expiresAt.getUTCFullYear()).toBe(done.expiresAt.getUTCFullYear() + 2);
    expect(last('namecheap.domains.renew').params).toMatchObject({ DomainName: 'renew-this.dev', Years: '2' });
    expect((await failure(registrar.renew('renew-this.dev', 9), RegistrarRefusedError)).registrarCode).toBe('3028166');
    expect((await failure(registrar.renew('not-ours.dev', 1), RegistrarRefusedError)).registrarCode).toBe('2016166');
  });

  it('reads live details from getInfo', async () => {
    await register('live-view.app');
    const live = await registrar.liveDetails('live-view.app');
    expect(live).toMatchObject({
      registrar: 'namecheap',
      registrarDomainId: String(fake.account.domains.get('live-view.app')!.id),
      status: 'Ok',
      whoisPrivacy: true,
      usingRegistrarDns: true,
      locked: false,
      nameservers: ['dns1.registrar-servers.com', 'dns2.registrar-servers.com'],
    });
    expect(Date.parse(live.expiresAt as string)).toBeGreaterThan(Date.now());
    expect((await failure(registrar.liveDetails('unknown-one.app'), RegistrarRefusedError)).registrarCode).toBe(
      '2019166',
    );
  });

  it('reads and replaces host records with indexed setHosts parameters (SLD/TLD split)', async () => {
    await register('hosts-here.co');
    expect(await registrar.getDnsRecords('hosts-here.co')).toEqual([
      { type: 'URL', name: '@', value: 'http://www.hosts-here.co/', ttl: 1800 },
      { type: 'CNAME', name: 'www', value: 'parkingpage.namecheap.com.', ttl: 1800 },
    ]);
    expect(last('namecheap.domains.dns.getHosts').params).toMatchObject({ SLD: 'hosts-here', TLD: 'co' });
    const records = [
      { type: 'A' as const, name: '@', value: '192.0.2.10', ttl: 300 },
      { type: 'CNAME' as const, name: 'www', value: 'edge.custom-domains.example', ttl: 1800 },
      { type: 'MX' as const, name: '@', value: 'mx1.mail.example', ttl: 3600, priority: 5 },
      { type: 'TXT' as const, name: '@', value: 'v=spf1 include:_spf.mail.example ~all', ttl: 1800 },
    ];
    await registrar.setDnsRecords('hosts-here.co', records);
    expect(last('namecheap.domains.dns.setHosts').params).toMatchObject({
      SLD: 'hosts-here',
      TLD: 'co',
      EmailType: 'MX',
      HostName1: '@',
      RecordType1: 'A',
      Address1: '192.0.2.10',
      TTL1: '300',
      HostName3: '@',
      RecordType3: 'MX',
      Address3: 'mx1.mail.example',
      MXPref3: '5',
      TTL3: '3600',
    });
    expect(await registrar.getDnsRecords('hosts-here.co')).toEqual(records);
    await registrar.setDnsRecords('hosts-here.co', []);
    expect(await registrar.getDnsRecords('hosts-here.co')).toEqual([]);
  });

  it('refuses host records the registrar rejects, keeping the old set', async () => {
    await register('strict-hosts.net');
    const before = await registrar.getDnsRecords('strict-hosts.net');
    const srv = await failure(
      registrar.setDnsRecords('strict-hosts.net', [
        { type: 'SRV', name: '_sip._tcp', value: '10 60 5060 sip.example.net', ttl: 1800 },
      ]),
      RegistrarRefusedError,
    );
    expect(srv).toMatchObject({ registrarCode: '2050900', reason: 'Invalid RecordType SRV' });
    await failure(
      registrar.setDnsRecords('strict-hosts.net', [{ type: 'A', name: '@', value: 'not-an-ip', ttl: 1800 }]),
      RegistrarRefusedError,
    );
    expect(await registrar.getDnsRecords('strict-hosts.net')).toEqual(before);
    // Namecheap caps TTLs at 60000 s; a longer one is sent capped rather than refused.
    await registrar.setDnsRecords('strict-hosts.net', [{ type: 'A', name: '@', value: '192.0.2.1', ttl: 86400 }]);
    expect(last('namecheap.domains.dns.setHosts').params.TTL1).toBe('60000');
  });

  it('switches to custom nameservers and back to the defaults', async () => {
    await register('ns-switch.xyz');
    await registrar.setNameservers('ns-switch.xyz', ['NS1.Example-DNS.net.', ' ns2.example-dns.net ']);
    expect(last('namecheap.domains.dns.setCustom').params).toMatchObject({
      SLD: 'ns-switch',
      TLD: 'xyz',
      Nameservers: 'NS1.Example-DNS.net,ns2.example-dns.net',
    });
    expect(await registrar.liveDetails('ns-switch.xyz')).toMatchObject({
      usingRegistrarDns: false,
      nameservers: ['ns1.example-dns.net', 'ns2.example-dns.net'],
    });
    const getHosts = await failure(registrar.getDnsRecords('ns-switch.xyz'), RegistrarRefusedError);
    expect(getHosts.registrarCode).toBe('2030288');
    await failure(registrar.setDnsRecords('ns-switch.xyz', []), RegistrarRefusedError);

    const one = await failure(
      registrar.setNameservers('ns-switch.xyz', ['ns1.example-dns.net']),
      RegistrarRefusedError,
    );
    expect(one.reason).toMatch(/at least two nameservers/);
    const missing = await failure(
      registrar.setNameservers('ns-switch.xyz', ['ns1.example-dns.net', 'ns.nowhere.invalid']),
      RegistrarRefusedError,
    );
    expect(missing.reason).toMatch(/ns\.nowhere\.invalid is not registered/);

    await registrar.setNameservers('ns-switch.xyz', []);
    expect(last('namecheap.domains.dns.setDefault').params).toMatchObject({ SLD: 'ns-switch', TLD: 'xyz' });
    expect(await registrar.liveDetails('ns-switch.xyz')).toMatchObject({ usingRegistrarDns: true });
    await expect(registrar.getDnsRecords('ns-switch.xyz')).resolves.toHaveLength(2);
  });

  it.each([
    ['hangs', { kind: 'hang' as const }, /timed out after 400 ms/],
    ['answers HTTP 503', { kind: 'status' as const, status: 503 }, /HTTP 503/],
    ['answers an HTML error page', { kind: 'garbage' as const }, /not an ApiResponse/],
    ['drops the connection', { kind: 'reset' as const }, /could not be reached/],
  ])('is unavailable when Namecheap %s', async (_what, injected, message) => {
    fake.failNext('namecheap.domains.check', injected);
    const started = Date.now();
    const error = await failure(registrar.check('any-name.com'), RegistrarUnavailableError);
    expect(error.message).toMatch(message);
    expect(Date.now() - started).toBeLessThan(3_000);
  });

  it('is unavailable when nothing listens, and refuses on bad credentials with the registrar text', async () => {
    const closed = await startNamecheapServer();
    await closed.close();
    const unreachable = new NamecheapRegistrar({ ...credentials(closed.url), timeoutMs: 1_000 });
    await failure(unreachable.check('x.com'), RegistrarUnavailableError);
    const wrongKey = new NamecheapRegistrar({ ...credentials(fake.url), apiKey: 'wrong', timeoutMs: 1_000 });
    const refused = await failure(wrongKey.check('x.com'), RegistrarRefusedError);
    expect(refused).toMatchObject({
      registrarCode: '1011102',
      reason: 'API Key is invalid or API access has not been enabled',
    });
  });

  function credentials(apiUrl: string) {
    return {
      apiUrl,
      apiUser: fake.env.NAMECHEAP_API_USER,
      apiKey: fake.env.NAMECHEAP_API_KEY,
      username: fake.env.NAMECHEAP_USERNAME,
      clientIp: fake.env.NAMECHEAP_CLIENT_IP,
    };
  }
});
