import jwt from 'jsonwebtoken';
import { connectSessionKey, signConnectSession, verifyConnectSession } from './connect-session.token';

const key = connectSessionKey('s'.repeat(32));
const now = Date.parse('2026-01-01T00:00:00Z');
const claims = { workspaceId: 'ws_1', domainId: 'dom_1', jti: 'cs_abc', expiresAt: now / 1000 + 3600 };

describe('connect-session tokens', () => {
  it('round-trips the claims until expiry, and not a second after', () => {
    const token = signConnectSession(key, claims, now);
    expect(token).toMatch(/^cs_[\w-]+\.[\w-]+\.[\w-]+$/);
    expect(verifyConnectSession(key, token, now)).toEqual(claims);
    expect(verifyConnectSession(key, token, now + 3_599_000)).toEqual(claims);
    expect(verifyConnectSession(key, token, now + 3_600_000)).toBeUndefined();
  });

  it('refuses other keys, edited claims, other algorithms and other audiences', () => {
    const token = signConnectSession(key, claims, now);
    expect(verifyConnectSession(connectSessionKey('t'.repeat(32)), token, now)).toBeUndefined();
    const [h, , s] = token.slice(3).split('.');
    const edited = Buffer.from(
      JSON.stringify({ ws: 'ws_2', dom: 'dom_1', jti: 'x', exp: claims.expiresAt, aud: 'connect-session' }),
    );
    expect(verifyConnectSession(key, `cs_${h}.${edited.toString('base64url')}.${s}`, now)).toBeUndefined();
    const none = jwt.sign({ ws: 'ws_1', dom: 'dom_1', jti: 'x', aud: 'connect-session' }, '', { algorithm: 'none' });
    expect(verifyConnectSession(key, `cs_${none}`, now)).toBeUndefined();
    const otherAudience = jwt.sign({ ws: 'ws_1', dom: 'dom_1', jti: 'x', aud: 'oauth' }, key, { algorithm: 'HS256' });
    expect(verifyConnectSession(key, `cs_${otherAudience}`, now)).toBeUndefined();
    expect(verifyConnectSession(key, token.slice(3), now)).toBeUndefined();
    expect(verifyConnectSession(key, 'cs_', now)).toBeUndefined();
  });

  it('derives a purpose-bound key: the raw secret does not verify', () => {
    const token = signConnectSession(key, claims, now);
    expect(verifyConnectSession(Buffer.from('s'.repeat(32)), token, now)).toBeUndefined();
  });
});
