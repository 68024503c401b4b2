import { classifyAddress, OriginUrlError, parseOriginUrl } from './ssrf';

describe('parseOriginUrl', () => {
  it('parses a public origin', () => {
    const origin = parseOriginUrl(' https://App.Example.com:8443/base?x=1 ');
    expect(origin.host).toBe('app.example.com');
    expect(origin.literalIp).toBeUndefined();
    expect(origin.url.href).toBe('https://app.example.com:8443/base?x=1');
  });

  it.each([
    ['http://2130706433', '127.0.0.1'],
    ['http://0x7f.1', '127.0.0.1'],
    ['http://0x7f000001/', '127.0.0.1'],
    ['http://017700000001', '127.0.0.1'],
    ['http://127.1', '127.0.0.1'],
    ['http://127.0.0.1./', '127.0.0.1'],
    ['http://%31%32%37.0.0.1/', '127.0.0.1'],
    ['http://0/', '0.0.0.0'],
    ['http://10.0.0.1:8080/', '10.0.0.1'],
    ['http://[::1]:3000/', '::1'],
    ['http://[0:0:0:0:0:0:0:1]/', '::1'],
    ['http://[::ffff:127.0.0.1]/', '::ffff:7f00:1'],
    ['https://93.184.216.34/', '93.184.216.34'],
  ])('normalizes the numeric host of %s to %s for classifyAddress', (input, ip) => {
    const origin = parseOriginUrl(input);
    expect(origin).toMatchObject({ host: ip, literalIp: ip });
  });

  it('leaves the verdict on literal addresses to classifyAddress (so allow-lists apply)', () => {
    const { literalIp } = parseOriginUrl('http://0x7f.1:9000');
    expect(classifyAddress(literalIp!, []).blocked).toBe(true);
    expect(classifyAddress(literalIp!, ['127.0.0.0/8']).blocked).toBe(false);
  });

  it.each([
    ['http://localhost:3000', 'ssrf_blocked', /internal name/],
    ['http://LOCALHOST./', 'ssrf_blocked', /internal name/],
    ['http://api.localhost/', 'ssrf_blocked', /internal name/],
    ['http://printer.local', 'ssrf_blocked', /internal name/],
    ['http://printer.local./', 'ssrf_blocked', /internal name/],
    ['http://metadata.google.internal/', 'ssrf_blocked', /internal name/],
    ['http://intranet/', 'ssrf_blocked', /not a public hostname/],
    ['ftp://example.com/', 'invalid_url', /http or https, not ftp/],
    ['file:///etc/passwd', 'invalid_url', /http or https/],
    ['javascript:alert(1)', 'invalid_url', /http or https/],
    ['http://user:pass@example.com/', 'invalid_url', /user name or password/],
    ['http://user@example.com/', 'invalid_url', /user name or password/],
    ['example.com', 'invalid_url', /absolute/],
    ['/relative', 'invalid_url', /absolute/],
    ['http://', 'invalid_url', /absolute/],
    ['http://example.com:99999/', 'invalid_url', /absolute/],
    ['http://1.2.3.4.5/', 'invalid_url', /absolute/],
    [`https://example.com/${'a'.repeat(2048)}`, 'invalid_url', /at most 2048/],
  ])('refuses %s (%s)', (input, code, message) => {
    let error: unknown;
    try {
      parseOriginUrl(input);
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(OriginUrlError);
    expect(error).toMatchObject({ code, name: 'OriginUrlError', message: expect.stringMatching(message) });
  });

  it.each([
    ['shop.example.com', 'must be an absolute http or https URL: add the scheme, e.g. https://shop.example.com'],
    [
      'hooks.example.com/in',
      'must be an absolute http or https URL: add the scheme, e.g. https://hooks.example.com/in',
    ],
    [
      'shop.example.com:8080/app',
      'must be an absolute http or https URL: add the scheme, e.g. https://shop.example.com:8080/app',
    ],
    ['not a url at all', 'must be an absolute http or https URL, e.g. https://app.example.com'],
    ['ftp://files.example.com/in', 'must use http or https, not ftp'],
    ['mailto:ops@example.com', 'must use http or https, not mailto'],
  ])('says the fix for %j, without naming a field (the caller does)', (input, message) => {
    expect(() => parseOriginUrl(input)).toThrow(new OriginUrlError('invalid_url', message));
  });
});
