import { SecretBox } from '@app/crypto';
import { PendingSso } from './oidc-client';

/** The flow cookie: sealed (AES-GCM under ENCRYPTION_KEY), HttpOnly, ten minutes, this browser only. */
export const SSO_COOKIE = 'cd_console_sso';
export const SSO_FLOW_SECONDS = 600;

export function sealPending(box: SecretBox, pending: PendingSso, now: number): string {
  return box.seal(JSON.stringify({ ...pending, expiresAt: now + SSO_FLOW_SECONDS * 1000 }));
}

/** The pending sign-in of this browser; undefined when absent, tampered with, foreign or expired. */
export function openPending(box: SecretBox, value: string | undefined, now: number): PendingSso | undefined {
  if (!value) return undefined;
  try {
    const parsed = JSON.parse(box.open(value)) as PendingSso & { expiresAt: number };
    if (typeof parsed.expiresAt !== 'number' || parsed.expiresAt < now) return undefined;
    const { state, nonce, verifier, redirectUri, next } = parsed;
    return [state, nonce, verifier, redirectUri, next].every((v) => typeof v === 'string')
      ? { state, nonce, verifier, redirectUri, next }
      : undefined;
  } catch {
    return undefined;
  }
}
