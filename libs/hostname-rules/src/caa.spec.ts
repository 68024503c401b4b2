import { CaaClimbStep, CaaRecord, caaIssuer, caaWarning, evaluateCaa } from './caa';

const issue = (value: string, flags = 0): CaaRecord => ({ flags, tag: 'issue', value });
const climb = (...sets: CaaRecord[][]): CaaClimbStep[] => {
  const names = ['shop.example.com', 'example.com', 'com'];
  return sets.map((records, i) => ({ name: names[i], records }));
};

describe('caaIssuer', () => {
  it.each([
    ['letsencrypt.org', 'letsencrypt.org'],
    ['  LetsEncrypt.ORG ', 'letsencrypt.org'],
    ['letsencrypt.org; validationmethods=dns-01', 'letsencrypt.org'],
    ['letsencrypt.org;accounturi=https://acme-v02.api.letsencrypt.org/acme/acct/1', 'letsencrypt.org'],
    [';', undefined],
    ['', undefined],
    ['  ;  ', undefined],
    ['lets encrypt.org', undefined],
    ['"letsencrypt.org"', undefined],
  ])('reads %j as %j', (value, expected) => {
    expect(caaIssuer(value)).toBe(expected);
  });
});

describe('evaluateCaa', () => {
  it.each<[string, CaaClimbStep[], boolean, boolean, string | undefined]>([
    ['no CAA anywhere', climb([], [], []), true, true, undefined],
    ['an empty climb', [], true, true, undefined],
    ['letsencrypt on the hostname', climb([issue('letsencrypt.org')]), true, false, 'shop.example.com'],
    ['pki.goog on the parent', climb([], [issue('pki.goog')]), false, true, 'example.com'],
    ['both CAs', climb([], [issue('letsencrypt.org'), issue('pki.goog')]), true, true, 'example.com'],
    ['another CA only', climb([], [issue('digicert.com')]), false, false, 'example.com'],
    ['an empty issuer forbids all', climb([issue(';')]), false, false, 'shop.example.com'],
    [
      'parameters do not hide the issuer',
      climb([issue('letsencrypt.org; validationmethods=http-01')]),
      true,
      false,
      'shop.example.com',
    ],
    ['issuer match is case-insensitive', climb([issue('PKI.Goog')]), false, true, 'shop.example.com'],
    [
      'the tag is case-insensitive',
      climb([{ flags: 0, tag: 'ISSUE', value: 'digicert.com' }]),
      false,
      false,
      'shop.example.com',
    ],
    [
      'the closest set wins over a permissive parent',
      climb([issue('digicert.com')], [issue('letsencrypt.org')]),
      false,
      false,
      'shop.example.com',
    ],
    [
      'the closest set wins over a forbidding parent',
      climb([issue('letsencrypt.org')], [issue(';')]),
      true,
      false,
      'shop.example.com',
    ],
    [
      'only iodef: unrestricted',
      climb([{ flags: 0, tag: 'iodef', value: 'mailto:sec@example.com' }]),
      true,
      true,
      'shop.example.com',
    ],
    [
      'only issuewild: non-wildcard unrestricted',
      climb([{ flags: 0, tag: 'issuewild', value: ';' }]),
      true,
      true,
      'shop.example.com',
    ],
    [
      'an unknown non-critical tag is ignored',
      climb([{ flags: 0, tag: 'tbs', value: 'x' }, issue('letsencrypt.org')]),
      true,
      false,
      'shop.example.com',
    ],
    [
      'a critical unknown tag forbids all',
      climb([{ flags: 128, tag: 'tbs', value: 'x' }, issue('letsencrypt.org')]),
      false,
      false,
      'shop.example.com',
    ],
    ['a critical known tag is fine', climb([issue('letsencrypt.org', 128)]), true, false, 'shop.example.com'],
  ])('%s', (_, steps, letsencrypt, google, relevantName) => {
    const evaluation = evaluateCaa(steps);
    expect(evaluation.authorizes).toEqual({ letsencrypt, google });
    expect(evaluation.relevantName).toBe(relevantName);
  });

  it('lists the relevant set in presentation format', () => {
    const evaluation = evaluateCaa(
      climb([], [issue('digicert.com'), { flags: 128, tag: 'iodef', value: 'mailto:a@b.c' }], [issue('x.org')]),
    );
    expect(evaluation.records).toEqual(['0 issue "digicert.com"', '128 iodef "mailto:a@b.c"']);
  });

  it('names the critical unknown tag', () => {
    expect(evaluateCaa(climb([{ flags: 128, tag: 'tbs', value: '' }])).criticalUnknownTag).toBe('tbs');
  });
});

describe('caaWarning', () => {
  it('stays silent when either CA may issue, or there are no CAA records', () => {
    expect(caaWarning(evaluateCaa(climb([], [issue('letsencrypt.org')])))).toBeUndefined();
    expect(caaWarning(evaluateCaa(climb([issue('pki.goog')])))).toBeUndefined();
    expect(caaWarning(evaluateCaa(climb([], [], [])))).toBeUndefined();
  });

  it('warns when neither CA may issue, with the records and how to fix it', () => {
    const warning = caaWarning(evaluateCaa(climb([], [issue('digicert.com'), issue('sectigo.com')])));
    expect(warning).toEqual({
      code: 'caa_blocks_letsencrypt',
      message: expect.stringContaining("authorize neither Let's Encrypt nor Google Trust Services"),
      caaRecords: ['0 issue "digicert.com"', '0 issue "sectigo.com"'],
    });
    expect(warning?.message).toContain('example.com CAA 0 issue "letsencrypt.org"');
    expect(warning?.message).toContain('remove the CAA records');
  });

  it('explains a critical unknown property', () => {
    const warning = caaWarning(evaluateCaa(climb([{ flags: 128, tag: 'tbs', value: 'x' }])));
    expect(warning?.message).toContain('critical "tbs" property');
    expect(warning?.caaRecords).toEqual(['128 tbs "x"']);
  });
});
