import { ALL_SCOPES } from '@app/auth';
import { DomainError } from '@app/kernel';

/** A request body as the form or JSON parser left it. */
export type OAuthBody = Record<string, unknown> | undefined;

export interface ClientCredentials {
  clientId: string;
  clientSecret: string;
  method: 'client_secret_basic' | 'client_secret_post';
}

const invalidClient = (message: string) => new DomainError('invalid_client', message);
const invalidRequest = (message: string, details?: Record<string, unknown>) =>
  new DomainError('invalid_request', message, details);

/** One parameter: a string, or absent; RFC 6749 section 3.1 forbids repeating one. */
export function param(body: OAuthBody, name: string): string | undefined {
  const value = body?.[name];
  if (value === undefined || value === null) return undefined;
  if (Array.isArray(value)) throw invalidRequest(`The ${name} parameter was sent more than once`, { parameter: name });
  if (typeof value !== 'string') throw invalidRequest(`The ${name} parameter must be a string`, { parameter: name });
  return value;
}

/**
 * The client's credentials from HTTP Basic (RFC 6749 section 2.3.1: form-encoded id and secret) or
 * from the body, never both.
 */
export function clientCredentials(authorization: string | undefined, body: OAuthBody): ClientCredentials {
  const bodyId = param(body, 'client_id');
  const bodySecret = param(body, 'client_secret');
  const basic = /^Basic[ ]+([A-Za-z0-9+/=]+)\s*$/i.exec(authorization ?? '');
  if (basic) {
    if (bodySecret !== undefined) {
      throw invalidRequest('Authenticate the client one way only: HTTP Basic or client_secret in the body');
    }
    const decoded = Buffer.from(basic[1], 'base64').toString('utf8');
    const colon = decoded.indexOf(':');
    if (colon < 0) throw invalidClient('Malformed HTTP Basic credentials: expected client_id:client_secret');
    const clientId = formDecode(decoded.slice(0, colon));
    const clientSecret = formDecode(decoded.slice(colon + 1));
    if (bodyId !== undefined && bodyId !== clientId) {
      throw invalidRequest('The client_id in the body differs from the one in the Authorization header');
    }
    return { clientId, clientSecret, method: 'client_secret_basic' };
  }
  if (bodyId === undefined || bodySecret === undefined) {
    throw invalidClient(
      'Client authentication is required: HTTP Basic with client_id and client_secret, or both in the body',
    );
  }
  return { clientId: bodyId, clientSecret: bodySecret, method: 'client_secret_post' };
}

function formDecode(value: string): string {
  try {
    return decodeURIComponent(value.replace(/\+/g, ' '));
  } catch {
    throw invalidClient('Malformed HTTP Basic credentials');
  }
}

/** The grants the token endpoint serves (also announced by discovery and the API document). */
export const GRANT_TYPES = ['client_credentials'] as const;

/** The grant the token endpoint was asked for; only client_credentials exists. */
export function checkGrantType(body: OAuthBody): void {
  const grant = param(body, 'grant_type');
  if (grant === undefined) throw invalidRequest('The grant_type parameter is required', { parameter: 'grant_type' });
  if (!(GRANT_TYPES as readonly string[]).includes(grant)) {
    throw new DomainError('unsupported_grant_type', `Unsupported grant_type ${grant}: use ${GRANT_TYPES.join(', ')}`, {
      supported: [...GRANT_TYPES],
    });
  }
}

/**
 * The scopes to grant: the requested ones when all are the client's, else invalid_scope; none
 * requested means every scope the client has (RFC 6749 section 3.3).
 */
export function grantedScopes(requested: string | undefined, allowed: readonly string[]): string[] {
  const wanted = [...new Set((requested ?? '').split(' ').filter(Boolean))];
  if (!wanted.length) return [...allowed];
  const unknown = wanted.filter((s) => !ALL_SCOPES.includes(s));
  if (unknown.length) {
    throw new DomainError('invalid_scope', `Unknown scope: ${unknown.join(' ')}`, { unknown, supported: ALL_SCOPES });
  }
  const refused = wanted.filter((s) => !allowed.includes(s));
  if (refused.length) {
    throw new DomainError('invalid_scope', `This client may not request: ${refused.join(' ')}`, {
      refused,
      allowed,
    });
  }
  return wanted;
}
