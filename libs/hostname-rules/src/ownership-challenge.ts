/**
 * The DNS proof that a workspace controls a hostname another workspace holds. The TXT value is an
 * HMAC of (workspace, hostname) under a key derived from a server secret: unforgeable without the
 * secret, the same on every retry and every replica, and independent of the holder, so it says
 * nothing about who holds the name. No I/O: the caller looks the TXT record up.
 */
import { createHmac, hkdfSync, timingSafeEqual } from 'node:crypto';
import { Infer, obj, oneOfValues, str } from '@app/kernel';
import { wildcardBase } from './challenge-delegation';

/** The label the TXT record sits under: `_custom-domain-challenge.<hostname>` (of `example.com` for `*.example.com`). */
const OWNERSHIP_RECORD_LABEL = '_custom-domain-challenge';
const VALUE_PREFIX = 'custom-domain-owner=';

export const ownershipChallengeSchema = obj({
  type: oneOfValues('TXT'),
  name: str('`_custom-domain-challenge.<hostname>`'),
  value: str(
    'Bound to the requesting workspace and the hostname (HMAC under a server key): the same on every retry, ' +
      'nothing of the current holder in it',
  ),
});
export type OwnershipChallenge = Infer<typeof ownershipChallengeSchema>;

/** The HMAC key, derived (HKDF-SHA256) so it shares nothing usable with the secret's other uses. */
export function ownershipKey(serverSecret: string): Buffer {
  return Buffer.from(hkdfSync('sha256', serverSecret, 'custom-domains', 'hostname-ownership-v1', 32));
}

export function ownershipChallenge(key: Buffer, workspaceId: string, hostname: string): OwnershipChallenge {
  const mac = createHmac('sha256', key).update(`${workspaceId}\n${hostname}`).digest('base64url');
  const name = `${OWNERSHIP_RECORD_LABEL}.${wildcardBase(hostname)}`;
  return { type: 'TXT', name, value: `${VALUE_PREFIX}${mac}` };
}

/** Whether one of the TXT values found at the challenge's name is the expected one (surrounding spaces ignored). */
export function ownershipProven(challenge: OwnershipChallenge, txtValues: readonly string[]): boolean {
  const expected = Buffer.from(challenge.value);
  return txtValues.some((value) => {
    const found = Buffer.from(value.trim());
    return found.length === expected.length && timingSafeEqual(found, expected);
  });
}
