import { HostnameError, normalizeHostname, normalizeLookupHostname, normalizePurchaseHostname } from './hostname';

const opts = { edgeCnameTarget: 'edge.custom-domains.net' };
const normalize = (input: string) => normalizeHostname(input, opts);

describe('normalizeHostname', () => {
  it.each([
    ['shop.example.com', 'shop.example.com', false, 'example.com'],
    ['  Shop.Example.COM.  ', 'shop.example.com', false, 'example.com'],
    ['example.com', 'example.com', true, 'example.com'],
    ['example.co.uk', 'example.co.uk', true, 'example.co.uk'],
    ['a.b.example.co.uk', 'a.b.example.co.uk', false, 'example.co.uk'],
    ['Bücher.de', 'xn--bcher-kva.de', true, 'xn--bcher-kva.de'],
    ['xn--bcher-kva.de', 'xn--bcher-kva.de', true, 'xn--bcher-kva.de'],
    ['shop.ＥＸＡＭＰＬＥ.com', 'shop.example.com', false, 'example.com'],
    ['☃.net', 'xn--n3h.net', true, 'xn--n3h.net'],
    ['shop。example。com', 'shop.example.com', false, 'example.com'], // ideographic full stop
    ['my-shop.example.com', 'my-shop.example.com', false, 'example.com'],
    ['123.example.com', '123.example.com', false, 'example.com'],
    // private PSL entries are ignored: github.io is a registrable domain here
    ['me.github.io', 'me.github.io', false, 'github.io'],
    [`${'a'.repeat(63)}.com`, `${'a'.repeat(63)}.com`, true, `${'a'.repeat(63)}.com`],
  ])('accepts %j as %s (apex %s, registrable %s)', (input, hostname, apex, registrableDomain) => {
    expect(normalize(input)).toEqual({ hostname, apex, registrableDomain });
  });

  it('accepts a 253-character hostname and refuses 254', () => {
    const label = 'a'.repeat(63);
    const name253 = `${label}.${label}.${label}.${'b'.repeat(57)}.com`;
    expect(name253).toHaveLength(253);
    expect(normalize(name253).hostname).toBe(name253);
    expect(() => normalize(`a${name253}`)).toThrow(/253 characters/);
  });

  it.each([
    ['', /required/],
    ['   ', /required/],
    ['.', /required/],
    ['example.com..', /invalid label/],
    ['.example.com', /invalid label/],
    ['a..example.com', /invalid label/],
    [`${'a'.repeat(64)}.com`, /invalid label/],
    ['-shop.example.com', /invalid label/],
    ['shop-.example.com', /invalid label/],
    ['sh_op.example.com', /character "_"/],
    ['shop example.com', /character " "/],
    ['shop.example.com/path', /includes a path/],
    ['user@example.com', /character "@"/],
    ['%41.example.com', /character "%"/],
    ['*.example.com', /is a wildcard; this service does not connect wildcard hostnames/],
    ['a.*.example.com', /character "\*"/],
    ['example.com:443', /includes a port/],
    ['xn--zz.com', /not a valid domain name/],
    ['evil.com／x.example.com', /not a valid domain name/], // fullwidth solidus maps to "/"
    ['evil.com＠x.com', /not a valid domain name/],
    ['127.0.0.1', /IP address/],
    ['1.2.3.4.', /IP address/],
    ['::1', /IP address/],
    ['[::1]', /IP address/],
    ['[2001:db8::1]', /IP address/],
    ['0x7f.1', /IP address/],
    ['2130706433', /IP address/],
    ['localhost', /special-use/],
    ['LOCALHOST.', /special-use/],
    ['app.localhost', /special-use/],
    ['printer.local', /special-use/],
    ['db.internal', /special-use/],
    ['shop.test', /special-use/],
    ['x.invalid', /special-use/],
    ['www.example', /special-use/],
    ['abc.onion', /special-use/],
    ['1.0.0.127.in-addr.arpa', /special-use/],
    ['router.home.arpa', /special-use/],
    ['com', /full domain name/],
    ['intranet', /full domain name/],
    ['co.uk', /public suffix/],
    ['kawasaki.jp', /public suffix/],
    ['anything.kawasaki.jp', /public suffix/], // *.kawasaki.jp wildcard rule
    ['edge.custom-domains.net', /belongs to this service/],
    ['EDGE.custom-domains.net.', /belongs to this service/],
    ['custom-domains.net', /belongs to this service/],
    ['evil.custom-domains.net', /belongs to this service/],
  ])('refuses %j (%s)', (input, message) => {
    expect(() => normalize(input)).toThrow(HostnameError);
    expect(() => normalize(input)).toThrow(message);
  });

  it.each([
    ['https://shop.example.com', 'includes the scheme "https://": leave it out, e.g. "shop.example.com"'],
    ['HTTP://Shop.Example.com/app', 'includes the scheme "http://": leave it out, e.g. "shop.example.com"'],
    ['http://user@shop.example.com:8080/x', 'includes the scheme "http://": leave it out, e.g. "shop.example.com"'],
    [
      'shop.example.com/',
      'includes a path: send the name alone, without "/" and what follows, e.g. "shop.example.com"',
    ],
    [
      'shop.example.com/app?x=1',
      'includes a path: send the name alone, without "/" and what follows, e.g. "shop.example.com"',
    ],
    ['shop.example.com:8443', 'includes a port: leave out ":8443", e.g. "shop.example.com"'],
    ['https://', 'includes the scheme "https://": leave it out, e.g. "shop.example.com"'],
  ])('says what to leave out of the URL-shaped %j', (input, message) => {
    expect(() => normalize(input)).toThrow(`Hostname ${JSON.stringify(input)} ${message}`);
  });

  it('does not confuse a look-alike of the edge domain with it', () => {
    expect(normalize('mycustom-domains.net').hostname).toBe('mycustom-domains.net');
  });

  it('refuses the default edge target even though it sits under .example', () => {
    const edge = { edgeCnameTarget: 'edge.custom-domains.example.' };
    expect(() => normalizeHostname('x.custom-domains.example', edge)).toThrow(/belongs to this service/);
  });

  it('names itself in stack traces', () => {
    expect(new HostnameError('x').name).toBe('HostnameError');
  });
});

describe('normalizePurchaseHostname', () => {
  it.each([
    ['Example.COM.', 'example.com'],
    ['example.co.uk', 'example.co.uk'],
    ['bücher.de', 'xn--bcher-kva.de'],
    ['x.co', 'x.co'],
    ['a.b', 'a.b'], // 3 characters: the shortest possible name of two labels
  ])('accepts %j as %s', (input, hostname) => {
    expect(normalizePurchaseHostname(input)).toEqual({ hostname, apex: true, registrableDomain: hostname });
  });

  it.each([
    ['www.example.com', /subdomain; only example.com/],
    ['co.uk', /public suffix/],
    ['com', /full domain name/],
    ['shop.test', /special-use/],
    ['10.0.0.1', /IP address/],
    ['', /required/],
  ])('refuses %j (%s)', (input, message) => {
    expect(() => normalizePurchaseHostname(input)).toThrow(message);
  });
});

describe('normalizeLookupHostname', () => {
  it.each([
    ['Shop.Example.COM.', 'shop.example.com'],
    ['co.uk', 'co.uk'],
    ['bücher.de', 'xn--bcher-kva.de'],
    ['edge.custom-domains.example.net', 'edge.custom-domains.example.net'],
  ])('accepts %j as %s', (input, hostname) => {
    expect(normalizeLookupHostname(input)).toBe(hostname);
  });

  it.each([
    ['com', /full domain name/],
    ['localhost', /special-use/],
    ['metadata.google.internal', /special-use/],
    ['10.0.0.1', /IP address/],
    ['[::1]', /IP address/],
    ['a_b.example.com', /character/],
    ['-a.example.com', /invalid label/],
    [' ', /required/],
  ])('refuses %j (%s)', (input, message) => {
    expect(() => normalizeLookupHostname(input)).toThrow(message);
  });
});

describe('normalizeHostname with wildcards', () => {
  const wild = (input: string) => normalizeHostname(input, { ...opts, wildcards: true });

  it.each([
    ['*.example.com', '*.example.com', 'example.com'],
    [' *.Shop.Example.COM. ', '*.shop.example.com', 'example.com'],
    ['*.Bücher.de', '*.xn--bcher-kva.de', 'xn--bcher-kva.de'],
    ['*.me.github.io', '*.me.github.io', 'github.io'],
  ])('accepts %j as %s (registrable %s)', (input, hostname, registrableDomain) => {
    expect(wild(input)).toEqual({ hostname, apex: false, registrableDomain });
  });

  it.each([
    ['*.com', /public suffix/],
    ['*.co.uk', /public suffix/],
    ['*.github.io', /covers a public suffix/],
    ['*.*.example.com', /one "\*", as its whole first label/],
    ['**.example.com', /character "\*"/],
    ['*example.com', /character "\*"/],
    ['*.', /required/],
    ['*.localhost', /special-use/],
    ['*.edge.custom-domains.net', /belongs to this service/],
    [`*.${'a'.repeat(63)}.${'a'.repeat(63)}.${'a'.repeat(63)}.${'b'.repeat(57)}.com`, /253/],
  ])('refuses %j', (input, message) => {
    expect(() => wild(input)).toThrow(message);
  });
});
