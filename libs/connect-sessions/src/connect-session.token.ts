import { createHmac, randomBytes } from 'node:crypto';
import jwt from 'jsonwebtoken';

/** Connect-session tokens start with this, so the guard asks only their resolver. */
export const CONNECT_SESSION_PREFIX = 'cs_';
const AUDIENCE = 'connect-session';

export interface ConnectSessionClaims {
  workspaceId: string;
  domainId: string;
  /** Unique per token: the principal's credential id (logs, rate limits). */
  jti: string;
  /** Seconds since the epoch. */
  expiresAt: number;
}

/**
 * The HS256 key, derived from SIGNING_SECRET with a purpose label so the same secret can sign other
 * things without a token of one kind ever verifying as another.
 */
export function connectSessionKey(signingSecret: string): Buffer {
  return createHmac('sha256', signingSecret).update('connect-session-token:v1').digest();
}

export const newSessionJti = () => `cs_${randomBytes(16).toString('base64url')}`;

/** A signed, unstored token: the claims are all there is (SPEC 4.2 rule 3). */
export function signConnectSession(key: Buffer, claims: ConnectSessionClaims, nowMs: number): string {
  const body = {
    ws: claims.workspaceId,
    dom: claims.domainId,
    iat: Math.floor(nowMs / 1000),
    exp: claims.expiresAt,
    aud: AUDIENCE,
    jti: claims.jti,
  };
  return CONNECT_SESSION_PREFIX + jwt.sign(body, key, { algorithm: 'HS256', noTimestamp: true });
}

/** The claims of a genuine, unexpired token; undefined for anything else (tampered, expired, malformed). */
export function verifyConnectSession(key: Buffer, token: string, nowMs: number): ConnectSessionClaims | undefined {
  if (!token.startsWith(CONNECT_SESSION_PREFIX)) return undefined;
  try {
    const payload = jwt.verify(token.slice(CONNECT_SESSION_PREFIX.length), key, {
      algorithms: ['HS256'],
      audience: AUDIENCE,
      clockTimestamp: Math.floor(nowMs / 1000),
    });
    if (typeof payload === 'string') return undefined;
    const { ws, dom, jti, exp } = payload as Record<string, unknown>;
    if (typeof ws !== 'string' || typeof dom !== 'string' || typeof jti !== 'string' || typeof exp !== 'number') {
      return undefined;
    }
    return { workspaceId: ws, domainId: dom, jti, expiresAt: exp };
  } catch {
    return undefined;
  }
}
