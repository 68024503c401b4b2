import { ConfigError, Env, integer, raw, url } from './env-parsers';

// Our accounts at the registrar (REGISTRAR=namecheap) and the payment provider (PAYMENTS=stripe).

export interface NamecheapConfig {
  apiUrl: string;
  apiUser: string;
  apiKey: string;
  username: string;
  clientIp: string;
  /** Every API call is abandoned after this long (domains.create can take half a minute). */
  timeoutMs: number;
}

export interface StripeConfig {
  apiUrl: string;
  secretKey: string;
  /** Per attempt; the client retries network failures a couple of times under the same idempotency key. */
  timeoutMs: number;
}

function required(env: Env, name: string, because: string): string {
  const value = raw(env, name);
  if (value === undefined) throw new ConfigError(name, `is required when ${because}`);
  return value;
}

export function namecheapConfig(env: Env): NamecheapConfig {
  const because = 'REGISTRAR=namecheap';
  return {
    apiUrl: url(env, 'NAMECHEAP_API_URL', ['https:', 'http:']) ?? 'https://api.namecheap.com/xml.response',
    apiUser: required(env, 'NAMECHEAP_API_USER', because),
    apiKey: required(env, 'NAMECHEAP_API_KEY', because),
    username: raw(env, 'NAMECHEAP_USERNAME') ?? required(env, 'NAMECHEAP_API_USER', because),
    clientIp: required(env, 'NAMECHEAP_CLIENT_IP', because),
    timeoutMs: integer(env, 'NAMECHEAP_TIMEOUT_MS', 60_000, 100, 300_000),
  };
}

export function stripeConfig(env: Env): StripeConfig {
  return {
    apiUrl: url(env, 'STRIPE_API_URL', ['https:', 'http:']) ?? 'https://api.stripe.com',
    secretKey: required(env, 'STRIPE_SECRET_KEY', 'PAYMENTS=stripe'),
    timeoutMs: integer(env, 'STRIPE_TIMEOUT_MS', 30_000, 100, 300_000),
  };
}
