import { normalizeValue, recordName, splitExpected, valueProblem, valueSeen } from './record-values';

describe('normalizeValue', () => {
  it.each([
    ['A', ' 192.0.2.1 ', '192.0.2.1'],
    ['AAAA', '2001:DB8:0:0::1', '2001:db8::1'],
    ['CNAME', 'Edge.Example.NET.', 'edge.example.net'],
    ['NS', 'NS1.Provider.com.', 'ns1.provider.com'],
    ['TXT', 'v=spf1 -all', 'v=spf1 -all'],
    ['TXT', '"v=spf1 " "include:x.com -all"', 'v=spf1 include:x.com -all'],
    ['TXT', 'Case Matters', 'Case Matters'],
    ['MX', '10 MX.Example.com.', '10 mx.example.com'],
    ['MX', 'mx.example.com', 'mx.example.com'],
    ['CAA', '0 issue "letsencrypt.org"', '0 issue "letsencrypt.org"'],
    ['CAA', 'ISSUE letsencrypt.org', '0 issue "letsencrypt.org"'],
    ['CAA', '128 issuewild ";"', '128 issuewild ";"'],
  ] as const)('%s %j is %j', (type, value, expected) => {
    expect(normalizeValue(type, value)).toBe(expected);
  });
});

describe('valueSeen', () => {
  it('matches an MX without priority against any priority, and one with priority exactly', () => {
    expect(valueSeen('MX', 'mx.example.com', ['10 mx.example.com'])).toBe(true);
    expect(valueSeen('MX', '20 mx.example.com', ['10 mx.example.com'])).toBe(false);
    expect(valueSeen('A', '192.0.2.1', ['192.0.2.2', '192.0.2.1'])).toBe(true);
  });
});

describe('recordName', () => {
  it.each([
    [undefined, 'shop.example.com'],
    ['@', 'shop.example.com'],
    ['_acme-challenge', '_acme-challenge.shop.example.com'],
    ['www.example.com.', 'www.example.com'],
    ['SHOP.example.com', 'shop.example.com'],
    ['_verify.shop.example.com', '_verify.shop.example.com'],
  ])('%j at shop.example.com is %s', (name, expected) => {
    expect(recordName('shop.example.com', name)).toBe(expected);
  });
});

describe('valueProblem', () => {
  it.each([
    ['A', '192.0.2.1'],
    ['AAAA', '2001:db8::1'],
    ['CNAME', 'edge.example.net.'],
    ['NS', 'ns1.example.com'],
    ['MX', '10 mx.example.com'],
    ['MX', 'mx.example.com'],
    ['CAA', '0 issue "letsencrypt.org"'],
    ['CAA', 'issue letsencrypt.org'],
    ['TXT', 'anything, at all "quoted"'],
  ] as const)('accepts %s %j', (type, value) => {
    expect(valueProblem(type, value)).toBeUndefined();
  });

  it.each([
    ['A', '2001:db8::1', /IPv4/],
    ['A', '192.0.2', /IPv4/],
    ['AAAA', '192.0.2.1', /IPv6/],
    ['CNAME', 'not a host', /hostname/],
    ['NS', 'http://x', /hostname/],
    ['MX', '70000 mx.example.com', /priority exchange/],
    ['CAA', 'letsencrypt.org', /flags tag value/],
    ['CAA', '300 issue x', /flags tag value/],
  ] as const)('refuses %s %j', (type, value, message) => {
    expect(valueProblem(type, value)).toMatch(message);
  });
});

describe('splitExpected', () => {
  it('splits listed values except for TXT and CAA', () => {
    expect(splitExpected('A', ['192.0.2.1, 192.0.2.2', '192.0.2.3'])).toEqual(['192.0.2.1', ' 192.0.2.2', '192.0.2.3']);
    expect(splitExpected('TXT', ['a,b'])).toEqual(['a,b']);
  });
});
