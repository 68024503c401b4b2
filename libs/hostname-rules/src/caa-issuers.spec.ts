import { CaaClimbStep } from './caa';
import { caaAllowsIssuer, caaIssuersWarning, caaRecordsAllowing, caaTagFor } from './caa-issuers';

const LE = { name: 'letsencrypt', caaIdentities: ['letsencrypt.org'], accountUri: 'https://ca.example/acct/1' };
const climb = (...values: string[]): CaaClimbStep[] => [
  { name: 'shop.example.com', records: [] },
  { name: 'example.com', records: values.map((value) => ({ flags: 0, tag: 'issue', value })) },
];

describe('caaAllowsIssuer (RFC 8659, RFC 8657)', () => {
  it.each([
    ['no CAA at all', [] as string[], true],
    ['our identity', ['letsencrypt.org'], true],
    ['another CA only', ['pki.goog'], false],
    ['our account', ['letsencrypt.org; accounturi=https://ca.example/acct/1'], true],
    ['another account', ['letsencrypt.org; accounturi=https://ca.example/acct/2'], false],
    ['http-01 allowed', ['letsencrypt.org; validationmethods=dns-01,http-01'], true],
    ['dns-01 only', ['letsencrypt.org; validationmethods=dns-01'], false],
    ['one of two records fits', ['letsencrypt.org; accounturi=https://other', 'letsencrypt.org'], true],
    ['forbid everyone', [';'], false],
  ])('%s', (_case, values, allowed) => {
    expect(caaAllowsIssuer(climb(...values), LE).allowed).toBe(allowed);
  });

  it('lets issuewild decide for a wildcard where the set has one, and issue otherwise (RFC 8659 4.3)', () => {
    const steps = (...records: Array<[string, string]>): CaaClimbStep[] => [
      { name: 'example.com', records: records.map(([tag, value]) => ({ flags: 0, tag, value })) },
    ];
    const wildOnly = steps(['issue', 'letsencrypt.org'], ['issuewild', ';']);
    expect(caaAllowsIssuer(wildOnly, LE, 'dns-01', false).allowed).toBe(true);
    expect(caaAllowsIssuer(wildOnly, LE, 'dns-01', true).allowed).toBe(false);
    expect(caaTagFor(wildOnly, true)).toBe('issuewild');
    const issueOnly = steps(['issue', 'pki.goog']);
    expect(caaAllowsIssuer(issueOnly, LE, 'dns-01', true).allowed).toBe(false);
    expect(caaTagFor(issueOnly, true)).toBe('issue');
    const dnsOnly = steps(['issuewild', 'letsencrypt.org; validationmethods=dns-01']);
    expect(caaAllowsIssuer(dnsOnly, LE, 'dns-01', true).allowed).toBe(true);
    expect(caaRecordsAllowing('example.com', { ...LE, accountUri: undefined }, 'issuewild')).toEqual([
      'example.com. CAA 0 issuewild "letsencrypt.org"',
    ]);
  });

  it('refuses an account binding before the account exists', () => {
    const verdict = caaAllowsIssuer(climb('letsencrypt.org; accounturi=https://ca.example/acct/1'), {
      ...LE,
      accountUri: undefined,
    });
    expect(verdict).toEqual({ allowed: false, relevantName: 'example.com', records: expect.any(Array) });
  });

  it('honours a critical unknown tag as a refusal for everyone', () => {
    const steps: CaaClimbStep[] = [{ name: 'example.com', records: [{ flags: 128, tag: 'tbs', value: 'x' }] }];
    expect(caaAllowsIssuer(steps, LE).allowed).toBe(false);
  });

  it('gives the exact records that allow an issuer, one bound to our account', () => {
    expect(caaRecordsAllowing('example.com', LE)).toEqual([
      'example.com. CAA 0 issue "letsencrypt.org"',
      'example.com. CAA 0 issue "letsencrypt.org; accounturi=https://ca.example/acct/1"',
    ]);
  });
});

describe('caaIssuersWarning', () => {
  const GOOGLE = { name: 'google', caaIdentities: ['pki.goog'] };
  it('says nothing when one of our CAs may issue', () => {
    expect(caaIssuersWarning(climb('pki.goog'), [LE, GOOGLE])).toBeUndefined();
  });

  it('names our CAs and gives the exact records that would allow each', () => {
    const warning = caaIssuersWarning(climb('digicert.com'), [LE, GOOGLE]);
    expect(warning).toEqual({
      code: 'caa_blocks_letsencrypt',
      message: expect.stringContaining("(Let's Encrypt or Google Trust Services)"),
      caaRecords: ['0 issue "digicert.com"'],
    });
    expect(warning?.message).toContain(
      'example.com. CAA 0 issue "letsencrypt.org" or example.com. CAA 0 issue "letsencrypt.org; accounturi=https://ca.example/acct/1" or example.com. CAA 0 issue "pki.goog"',
    );
  });
});
