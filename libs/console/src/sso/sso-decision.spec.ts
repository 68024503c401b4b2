import { SsoAccount, SsoIdentity, decideSsoSignIn, subjectKey } from './sso-decision';

const ISS = 'https://login.example.com';
const identity = (over: Partial<SsoIdentity> = {}): SsoIdentity => ({
  issuer: ISS,
  subject: 'u-1',
  email: 'Ada@Example.com',
  emailVerified: true,
  ...over,
});
const account = (over: Partial<SsoAccount> = {}): SsoAccount => ({
  id: 'cu_1',
  email: 'ada@example.com',
  oidcSubject: null,
  disabled: false,
  ...over,
});
const linked = account({ oidcSubject: subjectKey(ISS, 'u-1') });

describe('decideSsoSignIn', () => {
  it.each<[string, SsoIdentity, SsoAccount | undefined, SsoAccount | undefined, string[], object]>([
    ['linked subject signs in', identity(), linked, undefined, [], { kind: 'sign_in', userId: 'cu_1' }],
    [
      'linked subject signs in even without an email claim',
      identity({ email: undefined, emailVerified: false }),
      linked,
      undefined,
      [],
      { kind: 'sign_in' },
    ],
    ['linked but disabled', identity(), { ...linked, disabled: true }, undefined, [], { reason: 'disabled' }],
    [
      'verified email of an unlinked user links it',
      identity(),
      undefined,
      account(),
      [],
      { kind: 'link', userId: 'cu_1' },
    ],
    [
      'unverified email is refused',
      identity({ emailVerified: false }),
      undefined,
      account(),
      ['example.com'],
      { reason: 'no_verified_email' },
    ],
    [
      'no email is refused',
      identity({ email: undefined }),
      undefined,
      undefined,
      ['example.com'],
      { reason: 'no_verified_email' },
    ],
    [
      'email user linked to another identity',
      identity(),
      undefined,
      account({ oidcSubject: subjectKey(ISS, 'someone-else') }),
      [],
      { reason: 'linked_elsewhere' },
    ],
    ['disabled email user', identity(), undefined, account({ disabled: true }), [], { reason: 'disabled' }],
    ['unknown email is refused', identity(), undefined, undefined, [], { reason: 'unknown_user' }],
    [
      'unknown email of an allowed domain is created, lower-cased',
      identity({ name: 'Ada' }),
      undefined,
      undefined,
      ['example.com'],
      { kind: 'create', email: 'ada@example.com', name: 'Ada' },
    ],
    [
      'a subdomain is not the allowed domain',
      identity({ email: 'ada@evil.example.com' }),
      undefined,
      undefined,
      ['example.com'],
      { reason: 'unknown_user' },
    ],
    [
      'an allowed domain as a suffix of another is not allowed',
      identity({ email: 'ada@notexample.com' }),
      undefined,
      undefined,
      ['example.com'],
      { reason: 'unknown_user' },
    ],
  ])('%s', (_, who, bySubject, byEmail, domains, expected) => {
    expect(decideSsoSignIn(who, bySubject, byEmail, domains)).toMatchObject(expected);
  });

  it('keys subjects by issuer: the same subject of another issuer is another identity', () => {
    expect(subjectKey(ISS, 'u-1')).not.toBe(subjectKey('https://other.example.com', 'u-1'));
  });
});
