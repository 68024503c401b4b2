import { createHash } from 'node:crypto';
import { newId, randomBase62 } from '@app/persistence';

const ACCESS_TOKEN_PREFIX = 'oat_';
const ACCESS_TOKEN_PATTERN = /^oat_[0-9A-Za-z]{43}$/;
const CLIENT_ID_PATTERN = /^oac_[0-9A-Za-z]{1,64}$/;

/** The public client_id (also the row id). */
export const generateClientId = () => newId('oac');
/** `ocs_` and 32 random bytes: high entropy, so a fast hash is enough to store it. */
export const generateClientSecret = () => `ocs_${randomBase62(32)}`;
/** An opaque access token: `oat_` and 32 random bytes; only its hash is stored. */
export const generateAccessToken = () => `${ACCESS_TOKEN_PREFIX}${randomBase62(32)}`;

export const looksLikeAccessToken = (token: string) => ACCESS_TOKEN_PATTERN.test(token);
export const looksLikeClientId = (id: string) => CLIENT_ID_PATTERN.test(id);

export function hashSecret(secret: string): string {
  return createHash('sha256').update(secret).digest('hex');
}
