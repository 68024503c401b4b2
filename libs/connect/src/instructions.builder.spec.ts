import { providerById } from './detect-provider';
import { buildInstructions, InstructionsInput } from './instructions.builder';

const edge = { cnameTarget: 'edge.saas.net', ipv4: ['203.0.113.10', '203.0.113.11'] };

function input(hostname: string, providerId?: string, extra: Partial<InstructionsInput> = {}): InstructionsInput {
  const root = hostname.split('.').slice(-2).join('.');
  return {
    hostname,
    registrableDomain: root,
    zone: root,
    provider: providerId ? providerById(providerId) : undefined,
    nameservers: [],
    edge,
    domainConnect: { supported: false, reason: 'no_discovery_record' },
    ...extra,
  };
}

describe('buildInstructions', () => {
  // hostname, provider, method, record type(s), record name, ttl
  it.each([
    ['shop.example.com', 'cloudflare', 'cname', ['CNAME'], 'shop', 300],
    ['example.com', 'cloudflare', 'cname', ['CNAME'], '@', 300],
    ['shop.example.com', 'godaddy', 'cname', ['CNAME'], 'shop', 3600],
    ['example.com', 'godaddy', 'a', ['A', 'A'], '@', 3600],
    ['example.com', 'route53', 'a', ['A', 'A'], '', 300],
    ['a.b.example.com', 'route53', 'cname', ['CNAME'], 'a.b', 300],
    ['example.com', 'namecheap', 'cname', ['CNAME'], '@', 1800],
    ['example.com', 'porkbun', 'cname', ['CNAME'], '', 600],
    ['example.com', 'wix', 'a', ['A', 'A'], '', 3600],
    ['www.example.com', 'squarespace', 'cname', ['CNAME'], 'www', 14400],
    ['example.com', 'dnsimple', 'cname', ['CNAME'], '', 3600],
    ['example.com', undefined, 'a', ['A', 'A'], '@', 3600],
    ['shop.example.com', undefined, 'cname', ['CNAME'], 'shop', 3600],
  ])('%s at %s: %s', (hostname, providerId, method, types, name, ttl) => {
    const out = buildInstructions(input(hostname, providerId));
    expect(out.method).toBe(method);
    expect(out.records.map((r) => r.type)).toEqual(types);
    expect(out.records.every((r) => r.name === name && r.ttl === ttl)).toBe(true);
    expect(out.records.map((r) => r.value)).toEqual(method === 'cname' ? [edge.cnameTarget] : edge.ipv4);
    expect(out.apex).toBe(hostname === 'example.com');
    expect(out.provider).toEqual(
      providerId
        ? { id: providerId, name: providerById(providerId)!.name, detected: true }
        : { id: 'unknown', name: 'Your DNS provider', detected: false },
    );
    expect(out.methodReason.length).toBeGreaterThan(20);
    expect(out.steps.length).toBeGreaterThanOrEqual(4);
    expect(out.quirks.length).toBeGreaterThan(0);
  });

  it('Cloudflare: grey-cloud quirk, dashboard, flattening reason', () => {
    const out = buildInstructions(input('example.com', 'cloudflare'));
    expect(out.quirks.join(' ')).toMatch(/DNS only.*grey cloud/);
    expect(out.methodReason).toMatch(/Cloudflare flattens a CNAME/);
    expect(out.dashboardUrl).toBe('https://dash.cloudflare.com/?to=/:account/example.com/dns/records');
    expect(out.steps.some((s) => s.includes('Add a CNAME record: Name "@", Target "edge.saas.net", TTL Auto.'))).toBe(
      true,
    );
  });

  it('GoDaddy apex: A records, the reason names GoDaddy, steps name its fields', () => {
    const out = buildInstructions(input('example.com', 'godaddy'));
    expect(out.methodReason).toMatch(/GoDaddy does not allow a CNAME there/);
    expect(out.methodReason).toContain('203.0.113.10, 203.0.113.11');
    expect(out.steps).toContain('Add an A record: Name "@", Value "203.0.113.10", TTL 1 Hour.');
    expect(out.dashboardUrl).toBe('https://dcc.godaddy.com/control/dnsmanagement?domainName=example.com');
  });

  it('ALIAS providers: method cname, the step says which record type to pick', () => {
    const out = buildInstructions(input('example.com', 'namecheap'));
    expect(out.methodReason).toMatch(/ALIAS/);
    expect(out.steps.some((s) => s.startsWith('Add an ALIAS record: Host "@"'))).toBe(true);
  });

  it('an empty apex name is shown as "leave empty" in the steps', () => {
    const out = buildInstructions(input('example.com', 'route53'));
    expect(out.steps.some((s) => s.includes('Record name (leave empty)'))).toBe(true);
  });

  it('unknown provider: generic steps list the nameservers; label and full-name advice', () => {
    const out = buildInstructions(input('shop.example.com', undefined, { nameservers: ['ns1.corp-dns.net'] }));
    expect(out.steps[0]).toContain('ns1.corp-dns.net');
    expect(out.quirks[0]).toContain('"shop"');
    expect(out.quirks[0]).toContain('shop.example.com.example.com');
    expect(out.dashboardUrl).toBe('');
  });

  it('unknown provider with Domain Connect settings: its display name and control panel', () => {
    const out = buildInstructions(
      input('shop.example.com', undefined, {
        domainConnect: {
          supported: false,
          reason: 'template_not_adopted',
          providerId: 'virtucon.com',
          providerName: 'Virtucon',
          providerDisplayName: 'Virtucon Domains',
          urlControlPanel: 'https://panel.virtucon.com/dns?d=%domain%',
        },
      }),
    );
    expect(out.provider).toEqual({ id: 'unknown', name: 'Virtucon Domains', detected: false });
    expect(out.dashboardUrl).toBe('https://panel.virtucon.com/dns?d=example.com');
    expect(out.domainConnect.urlControlPanel).toBe('https://panel.virtucon.com/dns?d=example.com');
  });

  it('a hostname at the apex of a delegated subzone is treated like an apex for the method', () => {
    const out = buildInstructions(input('shop.example.com', 'godaddy', { zone: 'shop.example.com' }));
    expect(out.apex).toBe(false);
    expect(out.method).toBe('a');
    expect(out.records[0].name).toBe('@');
  });

  it('in a delegated subzone the label is relative to that zone', () => {
    const out = buildInstructions(input('a.eu.example.com', 'digitalocean', { zone: 'eu.example.com' }));
    expect(out.records[0]).toEqual({ type: 'CNAME', name: 'a', value: 'edge.saas.net', ttl: 3600, purpose: 'traffic' });
  });

  it('adds the _acme-challenge delegation as a record and a step of its own, named as the editor wants it', () => {
    const delegation = { name: '_acme-challenge.shop.example.com', target: 'abc.acme.saas.net' };
    const out = buildInstructions(input('shop.example.com', 'cloudflare', { delegation }));
    expect(out.records).toEqual([
      { type: 'CNAME', name: 'shop', value: 'edge.saas.net', ttl: 300, purpose: 'traffic' },
      { type: 'CNAME', name: '_acme-challenge.shop', value: 'abc.acme.saas.net', ttl: 300, purpose: 'certificate' },
    ]);
    const step = out.steps.find((s) => s.includes('_acme-challenge.shop'));
    expect(step).toMatch(/Optional but recommended: with it we issue the certificate before your traffic moves/);
  });

  it('asks for the delegation of a wildcard as required, at the name beside the * label', () => {
    const delegation = { name: '_acme-challenge.example.com', target: 'abc.acme.saas.net' };
    const out = buildInstructions(input('*.example.com', undefined, { delegation }));
    expect(out.records.map((r) => [r.name, r.purpose])).toEqual([
      ['*', 'traffic'],
      ['_acme-challenge', 'certificate'],
    ]);
    expect(out.steps.some((s) => /A wildcard certificate is validated through it/.test(s))).toBe(true);
  });
});

describe('buildInstructions quirks', () => {
  it("examples in quirks name the customer's own label, or www at the apex", () => {
    const sub = buildInstructions(input('blog.example.com', 'godaddy'));
    expect(sub.quirks[0]).toBe(
      'Enter only the label in Name (e.g. "blog", not "blog.example.com"); GoDaddy appends the domain.',
    );
    const apex = buildInstructions(input('example.com', 'godaddy'));
    expect(apex.quirks[0]).toContain('(e.g. "www", not "www.example.com")');
    expect(apex.methodReason).toContain('with A records to 203.0.113.10, 203.0.113.11');
    const one = buildInstructions(input('example.com', 'godaddy', { edge: { ...edge, ipv4: ['203.0.113.10'] } }));
    expect(one.methodReason).toContain('with an A record to 203.0.113.10.');
  });
});
