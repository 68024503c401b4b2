import { createHmac } from 'node:crypto';

/** The header every delivery carries: `t=<unix seconds>,sha256=<hex>` (a second `,sha256=` during a rotation). */
export const SIGNATURE_HEADER = 'x-service-signature';
export const EVENT_ID_HEADER = 'x-service-event-id';
export const EVENT_TYPE_HEADER = 'x-service-event-type';
export const DELIVERY_ID_HEADER = 'x-service-delivery-id';
export const USER_AGENT = 'custom-domains-webhooks/1.0 (+https://custom-domains.example/docs/webhooks)';

/** Hex HMAC-SHA256 of the raw body under the endpoint's whole secret string (`whsec_...`). */
export function signatureHex(secret: string, body: Buffer | string): string {
  return createHmac('sha256', secret).update(body).digest('hex');
}

/**
 * The header value for a body whose envelope carries `timestamp` = `t`: one `sha256=` per secret
 * (two during a rotation's overlap, the current one first).
 */
export function signatureHeader(secrets: string | readonly string[], body: Buffer | string, t: number): string {
  const list = typeof secrets === 'string' ? [secrets] : secrets;
  return [`t=${t}`, ...list.map((secret) => `sha256=${signatureHex(secret, body)}`)].join(',');
}
