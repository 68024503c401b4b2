import { DomainError } from '@app/kernel';
import { checkGrantType, clientCredentials, grantedScopes, param } from './oauth-request';
import { generateAccessToken, generateClientSecret, looksLikeAccessToken } from './oauth-credentials';

const basic = (raw: string) => `Basic ${Buffer.from(raw).toString('base64')}`;
const codeOf = (fn: () => unknown) => {
  try {
    fn();
  } catch (error) {
    return (error as DomainError).code;
  }
  return undefined;
};

describe('clientCredentials', () => {
  it('reads HTTP Basic with form-encoded id and secret', () => {
    expect(clientCredentials(basic('oac_1:s%3Acret+x'), {})).toEqual({
      clientId: 'oac_1',
      clientSecret: 's:cret x',
      method: 'client_secret_basic',
    });
    expect(clientCredentials(basic('oac_1:a:b'), { client_id: 'oac_1' }).clientSecret).toBe('a:b');
  });

  it('reads the body when there is no Basic header', () => {
    expect(clientCredentials('Bearer x', { client_id: 'oac_1', client_secret: 's' })).toEqual({
      clientId: 'oac_1',
      clientSecret: 's',
      method: 'client_secret_post',
    });
  });

  it.each<[string | undefined, Record<string, unknown> | undefined, string]>([
    [undefined, undefined, 'invalid_client'],
    [undefined, { client_id: 'oac_1' }, 'invalid_client'],
    [basic('no-colon'), {}, 'invalid_client'],
    [basic('oac_1:%E0%A4%A'), {}, 'invalid_client'],
    [basic('oac_1:s'), { client_secret: 's' }, 'invalid_request'],
    [basic('oac_1:s'), { client_id: 'oac_2' }, 'invalid_request'],
    [undefined, { client_id: ['a', 'b'], client_secret: 's' }, 'invalid_request'],
    [undefined, { client_id: 5, client_secret: 's' }, 'invalid_request'],
  ])('refuses %j with body %j as %s', (header, body, code) => {
    expect(codeOf(() => clientCredentials(header, body))).toBe(code);
  });
});

describe('grant and scope', () => {
  it('accepts only client_credentials', () => {
    expect(codeOf(() => checkGrantType({ grant_type: 'client_credentials' }))).toBeUndefined();
    expect(codeOf(() => checkGrantType({}))).toBe('invalid_request');
    expect(codeOf(() => checkGrantType({ grant_type: 'password' }))).toBe('unsupported_grant_type');
  });

  it('grants all of the client scopes by default and a subset on request', () => {
    const allowed = ['domains:read', 'domains:write'];
    expect(grantedScopes(undefined, allowed)).toEqual(allowed);
    expect(grantedScopes('', allowed)).toEqual(allowed);
    expect(grantedScopes('domains:write domains:write', allowed)).toEqual(['domains:write']);
    expect(codeOf(() => grantedScopes('domains:read webhooks:read', allowed))).toBe('invalid_scope');
    expect(codeOf(() => grantedScopes('admin', allowed))).toBe('invalid_scope');
  });

  it('treats a missing parameter as absent', () => {
    expect(param(undefined, 'scope')).toBeUndefined();
    expect(param({ scope: null }, 'scope')).toBeUndefined();
  });
});

describe('credentials', () => {
  it('are prefixed, long and distinct', () => {
    const tokens = new Set(Array.from({ length: 100 }, generateAccessToken));
    expect(tokens.size).toBe(100);
    for (const token of tokens) expect(looksLikeAccessToken(token)).toBe(true);
    expect(looksLikeAccessToken('sk_live_abc')).toBe(false);
    expect(generateClientSecret()).toMatch(/^ocs_[0-9A-Za-z]{43}$/);
  });
});
