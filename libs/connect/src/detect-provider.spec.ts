import { detectProvider, nameserverMatches } from './detect-provider';
import { PROVIDER_CATALOG } from './provider-catalog';
import { namesUpToRegistrable, registrableDomain } from './registrable-domain';

describe('detectProvider', () => {
  it.each([
    [['ada.ns.cloudflare.com', 'bob.ns.cloudflare.com'], 'cloudflare'],
    [['NS23.DOMAINCONTROL.COM.', 'ns24.domaincontrol.com'], 'godaddy'],
    [['dns1.registrar-servers.com', 'dns2.registrar-servers.com'], 'namecheap'],
    [['nsa1.squarespacedns.com', 'nsa2.squarespacedns.com'], 'squarespace'],
    [['ns-1536.awsdns-00.co.uk', 'ns-0.awsdns-00.com', 'ns-1024.awsdns-00.org', 'ns-512.awsdns-00.net'], 'route53'],
    [['ns-cloud-a1.googledomains.com'], 'google-cloud-dns'],
    [['ns1-01.azure-dns.com', 'ns2-01.azure-dns.net', 'ns3-01.azure-dns.org', 'ns4-01.azure-dns.info'], 'azure'],
    [['ns1.digitalocean.com'], 'digitalocean'],
    [['ns1.linode.com', 'ns5.linode.com'], 'linode'],
    [['ns1.vercel-dns.com'], 'vercel'],
    [['dns1.p01.nsone.net'], 'netlify'],
    [['curitiba.ns.porkbun.com', 'fortaleza.ns.porkbun.com'], 'porkbun'],
    [['ns1.hover.com'], 'hover'],
    [['ns-123-a.gandi.net'], 'gandi'],
    [['dns10.ovh.net', 'ns10.ovh.net'], 'ovh'],
    [['ns1045.ui-dns.com', 'ns1110.ui-dns.de', 'ns1045.ui-dns.org', 'ns1045.ui-dns.biz'], 'ionos'],
    [['ns1jvx.name.com'], 'namecom'],
    [['ns1.dyna-ns.net'], 'dynadot'],
    [['ns1.dns-parking.com', 'ns2.dns-parking.com'], 'hostinger'],
    [['ns0.wixdns.net', 'ns1.wixdns.net'], 'wix'],
    [['ns1.bluehost.com'], 'bluehost'],
    [['ns47.worldnic.com'], 'network-solutions'],
    [['ns1.dnsimple.com', 'ns2.dnsimple-edge.net'], 'dnsimple'],
    [['hydrogen.ns.hetzner.com'], 'hetzner'],
    [['ns1.dnsowl.com'], 'namesilo'],
  ])('%j is %s', (nameservers, id) => {
    expect(detectProvider(nameservers)?.id).toBe(id);
  });

  it('answers undefined for unknown or no nameservers', () => {
    expect(detectProvider(['ns1.example-dns.org', 'ns2.example-dns.org'])).toBeUndefined();
    expect(detectProvider([])).toBeUndefined();
  });

  it('matches suffixes at a label boundary only', () => {
    // "notname.com" must not look like Name.com, "evil-domaincontrol.com" not like GoDaddy.
    expect(detectProvider(['ns1.notname.com'])).toBeUndefined();
    expect(detectProvider(['ns1.evil-domaincontrol.com'])).toBeUndefined();
    expect(detectProvider(['ns.cloudflare.com.attacker.net'])).toBeUndefined();
  });

  it('picks the provider of most nameservers in a zone mid-migration', () => {
    const ns = ['ns1.digitalocean.com', 'ada.ns.cloudflare.com', 'bob.ns.cloudflare.com'];
    expect(detectProvider(ns)?.id).toBe('cloudflare');
  });

  it('has at least 20 providers with unique ids and complete entries', () => {
    expect(PROVIDER_CATALOG.length).toBeGreaterThanOrEqual(20);
    expect(new Set(PROVIDER_CATALOG.map((p) => p.id)).size).toBe(PROVIDER_CATALOG.length);
    for (const p of PROVIDER_CATALOG) {
      expect(p.nameservers.suffixes.length + (p.nameservers.labelPrefixes?.length ?? 0)).toBeGreaterThan(0);
      expect(p.dashboardUrl).toMatch(/^https:\/\//);
      expect(p.steps.length).toBeGreaterThan(0);
      expect(p.quirks.length).toBeGreaterThan(0);
      expect(p.ttl).toBeGreaterThan(0);
      if (p.apexCname === 'alias') expect(p.aliasRecordType).toBeDefined();
    }
  });

  it("no nameserver pattern of one provider matches another provider's sample", () => {
    const cloudflare = PROVIDER_CATALOG.find((p) => p.id === 'cloudflare')!;
    expect(nameserverMatches(cloudflare, 'ns-1.awsdns-07.net')).toBe(false);
  });
});

describe('registrableDomain', () => {
  it.each([
    ['shop.example.com', 'example.com'],
    ['Example.COM.', 'example.com'],
    ['a.b.example.co.uk', 'example.co.uk'],
    ['shop.customer.github.io', 'github.io'],
  ])('%s -> %s', (host, domain) => expect(registrableDomain(host)).toBe(domain));

  it('walks up from the hostname to the registrable domain', () => {
    expect(namesUpToRegistrable('a.b.example.co.uk')).toEqual([
      'a.b.example.co.uk',
      'b.example.co.uk',
      'example.co.uk',
    ]);
    expect(namesUpToRegistrable('example.com')).toEqual(['example.com']);
  });
});
