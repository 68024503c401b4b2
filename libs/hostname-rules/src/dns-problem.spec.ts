import fc from 'fast-check';
import { DnsAnswers, classifyDnsAnswers, dnsProblemMessage, isCloudflareProxyAddress } from './dns-problem';

const EDGE = { cnameTarget: 'edge.saas.net', ipv4: ['203.0.113.10', '203.0.113.11'] };
const H = 'shop.example.com';
const answers = (partial: Partial<DnsAnswers>): DnsAnswers => ({ a: [], aaaa: [], ...partial });

describe('classifyDnsAnswers', () => {
  it.each([
    ['CNAME to the edge', answers({ cname: 'edge.saas.net' }), 'correct', undefined],
    ['edge A records', answers({ a: ['203.0.113.10', '203.0.113.11'] }), 'correct', undefined],
    ['nothing at all', answers({}), 'not_resolving', undefined],
    ['a dangling CNAME', answers({ cname: 'old.host.net' }), 'incorrect', undefined],
    ['another host', answers({ cname: 'old.host.net', a: ['198.51.100.7'] }), 'incorrect', undefined],
    ['edge A plus a stray AAAA', answers({ a: ['203.0.113.10'], aaaa: ['2001:db8::1'] }), 'incorrect', 'stray_aaaa'],
    ['Cloudflare IPv4', answers({ a: ['104.16.132.229'] }), 'incorrect', 'proxied'],
    ['Cloudflare IPv6 only', answers({ aaaa: ['2606:4700::6810:84e5'] }), 'incorrect', 'proxied'],
    ['Cloudflare apex pair', answers({ a: ['172.67.1.1'], aaaa: ['2606:4700:3030::1'] }), 'incorrect', 'proxied'],
    ['one edge A and one foreign A', answers({ a: ['203.0.113.10', '198.51.100.7'] }), 'incorrect', undefined],
  ])('%s', (_name, input, dns, kind) => {
    const verdict = classifyDnsAnswers(H, input, EDGE);
    expect(verdict.dns).toBe(dns);
    expect(verdict.problem?.kind).toBe(kind);
  });

  it('names exactly the AAAA records to delete', () => {
    const verdict = classifyDnsAnswers(H, answers({ a: ['203.0.113.10'], aaaa: ['2001:db8::1', '2001:db8::2'] }), EDGE);
    expect(verdict.problem).toEqual({ kind: 'stray_aaaa', hostname: H, aaaa: ['2001:db8::1', '2001:db8::2'] });
    expect(dnsProblemMessage(verdict.problem!)).toMatch(
      /^Delete the AAAA records of shop\.example\.com \(2001:db8::1, 2001:db8::2\)/,
    );
  });

  const edgeA = fc.subarray(EDGE.ipv4, { minLength: 1 });
  const v6 = fc.ipV6().filter((a) => !isCloudflareProxyAddress(a));
  const foreignV4 = fc.ipV4().filter((a) => !EDGE.ipv4.includes(a) && !isCloudflareProxyAddress(a));

  it('edge A records plus any non-proxy AAAA are a stray AAAA naming every AAAA', () => {
    fc.assert(
      fc.property(edgeA, fc.array(v6, { minLength: 1, maxLength: 4 }), (a, aaaa) => {
        const verdict = classifyDnsAnswers(H, { a, aaaa }, EDGE);
        expect(verdict).toEqual({ dns: 'incorrect', problem: { kind: 'stray_aaaa', hostname: H, aaaa } });
      }),
    );
  });

  it('the edge CNAME is correct whatever else resolves', () => {
    fc.assert(
      fc.property(fc.array(fc.ipV4()), fc.array(fc.ipV6()), (a, aaaa) => {
        expect(classifyDnsAnswers(H, { cname: EDGE.cnameTarget, a, aaaa }, EDGE)).toEqual({ dns: 'correct' });
      }),
    );
  });

  it('never calls an answer with a foreign non-proxy A record a named problem', () => {
    fc.assert(
      fc.property(fc.array(foreignV4, { minLength: 1, maxLength: 3 }), fc.array(v6, { maxLength: 2 }), (a, aaaa) => {
        expect(classifyDnsAnswers(H, { a, aaaa }, EDGE)).toEqual({ dns: 'incorrect' });
      }),
    );
  });
});

describe('isCloudflareProxyAddress', () => {
  it.each([
    ['104.16.0.1', true],
    ['104.27.255.255', true],
    ['104.28.0.1', false],
    ['162.159.1.1', true],
    ['::ffff:104.16.0.1', true],
    ['2a06:98c7::1', true],
    ['2a06:98c8::1', false],
    ['1.1.1.1', false],
    ['203.0.113.10', false],
    ['not an address', false],
  ])('%s -> %s', (address, proxied) => expect(isCloudflareProxyAddress(address)).toBe(proxied));
});

describe('dnsProblemMessage', () => {
  it('tells a proxied record to become DNS only', () => {
    const message = dnsProblemMessage({
      kind: 'proxied',
      hostname: H,
      provider: 'Cloudflare',
      addresses: ['104.16.1.1'],
    });
    expect(message).toContain('"DNS only"');
    expect(message).toContain('104.16.1.1');
  });

  it('blames DNSSEC or the nameservers for SERVFAIL, not the CNAME', () => {
    const message = dnsProblemMessage({
      kind: 'broken_delegation',
      hostname: H,
      zone: 'example.com',
      nameservers: ['ns1.host.net'],
    });
    expect(message).toMatch(/DNSSEC/);
    expect(message).toMatch(/nameservers/);
    expect(message).not.toMatch(/add the CNAME/i);
  });

  it('says when a cached old record expires', () => {
    const message = dnsProblemMessage({
      kind: 'stale_cache',
      hostname: H,
      cached: 'CNAME old.host.net',
      ttl: 3600,
      expiresAt: '2026-11-25T05:07:00.000Z',
    });
    expect(message).toContain('until about 05:07 UTC on 2026-11-25 (TTL 3600 s)');
    expect(message).toContain('CNAME old.host.net');
  });
});
