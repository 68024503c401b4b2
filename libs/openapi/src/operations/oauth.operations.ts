import { GRANT_TYPES } from '@app/oauth';
import type { ErrorCode } from '@app/kernel';
import { arrayOf, bool, envelope, freeForm, int, obj, oneOfValues, ref, str } from '../schema';
import type { OperationDoc } from './operation-doc';

const oauthClient = envelope('client', ref('OAuthClient'));
/** Form-encoded as RFC 6749 asks; JSON accepted too. */
const FORM = ['application/x-www-form-urlencoded', 'application/json'];
/** RFC 6749 5.1: token answers are never cached; `invalid_client` names the Basic scheme. */
const noStore = { 'cache-control': 'CacheControl', pragma: 'Pragma' };
const clientErrorHeaders = { 401: { 'www-authenticate': 'WwwAuthenticate' } };
const clientAuth = {
  client_id: str('With client_secret_post; or HTTP Basic (client_secret_basic)'),
  client_secret: str(),
};
const oauthErrors: ErrorCode[] = ['invalid_request', 'invalid_client'];

/** OAuth 2.0: discovery, token, revocation, introspection and client registration. */
export const OAUTH_OPERATIONS: Record<string, OperationDoc> = {
  'GET /.well-known/oauth-authorization-server': {
    summary: 'OAuth 2.0 authorization server metadata (RFC 8414)',
    response: freeForm,
    headers: { 'cache-control': 'CacheControl' },
  },
  'POST /oauth/token': {
    summary: 'Access token by the client credentials grant (RFC 6749 4.4)',
    requestBody: {
      contentTypes: FORM,
      schema: obj({ grant_type: oneOfValues(...GRANT_TYPES), scope: str('Space-separated'), ...clientAuth }, [
        'scope',
        'client_id',
        'client_secret',
      ]),
    },
    response: obj({
      access_token: str('`oat_...`'),
      token_type: oneOfValues('Bearer'),
      expires_in: int(),
      scope: str(),
    }),
    errors: [...oauthErrors, 'unsupported_grant_type', 'invalid_scope'],
    headers: noStore,
    errorHeaders: clientErrorHeaders,
  },
  'POST /oauth/revoke': {
    summary: 'Revoke an access token (RFC 7009); unknown tokens answer 200 too',
    requestBody: {
      contentTypes: FORM,
      schema: obj({ token: str(), token_type_hint: str(), ...clientAuth }, [
        'token_type_hint',
        'client_id',
        'client_secret',
      ]),
    },
    response: obj({}),
    errors: oauthErrors,
    headers: noStore,
    errorHeaders: clientErrorHeaders,
  },
  'POST /oauth/introspect': {
    summary: 'Token introspection (RFC 7662)',
    requestBody: {
      contentTypes: FORM,
      schema: obj({ token: str(), token_type_hint: str(), ...clientAuth }, [
        'token_type_hint',
        'client_id',
        'client_secret',
      ]),
    },
    response: obj(
      {
        active: bool,
        scope: str(),
        client_id: str(),
        token_type: str(),
        exp: int(),
        iat: int(),
        sub: str(),
      },
      ['scope', 'client_id', 'token_type', 'exp', 'iat', 'sub'],
    ),
    errors: oauthErrors,
    headers: noStore,
    errorHeaders: clientErrorHeaders,
  },
  'POST /admin/workspaces/{id}/oauth-clients': {
    summary: 'Register an OAuth client (the secret is shown once)',
    response: obj({ client: ref('OAuthClient'), client_id: str(), client_secret: str('`ocs_...`, shown once') }),
  },
  'GET /admin/workspaces/{id}/oauth-clients': {
    summary: "A workspace's OAuth clients",
    response: obj({ clients: arrayOf(ref('OAuthClient')) }),
  },
  'DELETE /admin/workspaces/{id}/oauth-clients/{clientId}': {
    summary: 'Revoke an OAuth client and its tokens',
    response: oauthClient,
  },
};
