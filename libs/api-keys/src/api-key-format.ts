import { hash } from 'node:crypto';
import { randomBase62 } from '@app/persistence';

const API_KEY_PREFIX = 'sk_live_';
const API_KEY_PATTERN = /^sk_live_[0-9A-Za-z]{43,}$/;

/** `sk_live_` and 32 random bytes in base62 (43 characters). */
export function generateApiKey(): string {
  return `${API_KEY_PREFIX}${randomBase62(32)}`;
}

export function looksLikeApiKey(token: string): boolean {
  return API_KEY_PATTERN.test(token);
}

/** SHA-256 in hex, one-shot (no Hash object per request: half the cost of createHash, every API call). */
export function hashApiKey(key: string): string {
  return hash('sha256', key, 'hex');
}

export function apiKeyHint(key: string): string {
  return `${API_KEY_PREFIX}...${key.slice(-4)}`;
}
