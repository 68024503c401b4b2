import { checkResolvedAddresses, classifyAddress } from './ssrf';

describe('classifyAddress', () => {
  it.each([
    ['10.0.0.1', /private/],
    ['10.255.255.255', /private/],
    ['172.16.0.1', /private/],
    ['172.31.255.254', /private/],
    ['192.168.1.1', /private/],
    ['127.0.0.1', /loopback/],
    ['127.255.0.9', /loopback/],
    ['::1', /loopback/],
    ['169.254.169.254', /link-local.*metadata/],
    ['169.254.0.1', /link-local/],
    ['fe80::1', /link-local/],
    ['fe80::1%eth0', /link-local/],
    ['100.64.0.1', /carrier-grade NAT/],
    ['100.127.255.254', /carrier-grade NAT/],
    ['224.0.0.1', /multicast/],
    ['239.255.255.250', /multicast/],
    ['ff02::1', /multicast/],
    ['0.0.0.0', /unspecified/],
    ['0.1.2.3', /unspecified/],
    ['::', /unspecified/],
    ['255.255.255.255', /broadcast/],
    ['240.0.0.1', /reserved/],
    ['198.18.0.1', /reserved/], // benchmarking 198.18.0.0/15
    ['198.19.255.254', /reserved/],
    ['192.0.2.10', /reserved/], // TEST-NET-1
    ['198.51.100.7', /reserved/], // TEST-NET-2
    ['203.0.113.9', /reserved/], // TEST-NET-3
    ['192.0.0.8', /reserved/],
    ['2001:db8::1', /reserved/],
    ['fc00::1', /unique-local/],
    ['fd12:3456:789a::1', /unique-local/],
    ['::ffff:127.0.0.1', /127\.0\.0\.1 is a loopback/],
    ['::ffff:10.0.0.1', /private/],
    ['::ffff:a9fe:a9fe', /link-local/],
    ['::127.0.0.1', /loopback/], // deprecated IPv4-compatible form
    ['::7f00:1', /not a global unicast/], // the same address, written in hex
    ['1::1', /not a global unicast/],
    ['100::1', /discard/],
    ['2002:a00:1::1', /embedding 10\.0\.0\.1 is a private/], // 6to4 of 10.0.0.1
    ['2002:7f00:1::', /embedding 127\.0\.0\.1/],
    ['64:ff9b::10.0.0.1', /embedding 10\.0\.0\.1/], // NAT64 of a private address
    ['64:ff9b::a9fe:a9fe', /embedding 169\.254\.169\.254/],
    ['2001:0:4136:e378:8000:63bf:3fff:fdd2', /Teredo/],
    ['not-an-ip', /not an IP address/],
    ['127.1', /not an IP address/], // shorthand forms never come out of a resolver
    ['010.0.0.1', /not an IP address/],
    ['[::1]', /not an IP address/],
    ['', /not an IP address/],
  ])('blocks %s', (ip, reason) => {
    const verdict = classifyAddress(ip, []);
    expect(verdict.blocked).toBe(true);
    expect(verdict.reason).toMatch(reason);
  });

  it.each([
    '8.8.8.8',
    '1.1.1.1',
    '93.184.216.34',
    '100.63.255.255', // just below CGNAT
    '100.128.0.0', // just above CGNAT
    '172.15.255.255',
    '172.32.0.0',
    '2606:4700:4700::1111',
    '2a00:1450:4001:81c::200e',
    '::ffff:8.8.8.8',
    '64:ff9b::8.8.8.8', // NAT64 of a public address (DNS64 clusters)
    '2002:808:808::1', // 6to4 of 8.8.8.8
  ])('allows %s', (ip) => {
    expect(classifyAddress(ip, [])).toEqual({ blocked: false });
  });

  it('lets OUTBOUND_ALLOW_CIDRS exempt ranges, of either family and through mapping', () => {
    const allow = ['127.0.0.0/8', '::1/128', '10.1.0.0/16'];
    expect(classifyAddress('127.0.0.1', allow)).toEqual({ blocked: false });
    expect(classifyAddress('::1', allow)).toEqual({ blocked: false });
    expect(classifyAddress('::ffff:127.0.0.1', allow)).toEqual({ blocked: false });
    expect(classifyAddress('10.1.2.3', allow)).toEqual({ blocked: false });
    expect(classifyAddress('10.2.0.1', allow).blocked).toBe(true);
    expect(classifyAddress('169.254.169.254', allow).blocked).toBe(true);
    expect(classifyAddress('fd00::1', ['fd00::/8'])).toEqual({ blocked: false });
  });
});

describe('checkResolvedAddresses', () => {
  it('blocks when any address is blocked and lists the offending ones', () => {
    expect(checkResolvedAddresses(['8.8.8.8', '10.0.0.1', '::1'], [])).toEqual({
      blocked: true,
      offending: [
        { address: '10.0.0.1', reason: expect.stringMatching(/private/) },
        { address: '::1', reason: expect.stringMatching(/loopback/) },
      ],
    });
  });

  it('passes public addresses, and exempted ones', () => {
    expect(checkResolvedAddresses(['8.8.8.8', '2606:4700::1'], [])).toEqual({ blocked: false, offending: [] });
    expect(checkResolvedAddresses(['127.0.0.1'], ['127.0.0.0/8'])).toEqual({ blocked: false, offending: [] });
  });

  it('has nothing to block in an empty answer (the caller reports a name that does not resolve)', () => {
    expect(checkResolvedAddresses([], [])).toEqual({ blocked: false, offending: [] });
  });
});
