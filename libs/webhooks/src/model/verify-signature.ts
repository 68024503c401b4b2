import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * Verification for receivers of this service's webhooks: depends on node:crypto only, so it can be
 * copied as is. Pass the raw request bytes (not re-serialized JSON), the `X-Service-Signature`
 * header and the endpoint's secret (or, while deploying a rotated one, both secrets). Returns the
 * parsed event; throws WebhookVerificationError. During a rotation's overlap the header carries two
 * `sha256=` values, one per secret: any that matches a secret passes.
 *
 * Checks, in order: the header's shape; the HMAC-SHA256 of the raw bytes, in constant time; that
 * the body's `timestamp` equals the header's `t` (the signed bytes bind the time); and that `t` is
 * within `toleranceSeconds` (default 300) of now, so a captured request cannot be replayed later.
 */
export class WebhookVerificationError extends Error {
  constructor(
    readonly reason: 'malformed_header' | 'bad_signature' | 'timestamp_mismatch' | 'timestamp_out_of_range',
    message: string,
  ) {
    super(message);
    this.name = 'WebhookVerificationError';
  }
}

export interface VerifyOptions {
  toleranceSeconds?: number;
  /** Unix seconds; default: the system clock. */
  now?: number;
}

export interface VerifiedEvent {
  id: string;
  type: string;
  createdAt: string;
  timestamp: number;
  workspaceId: string;
  data: Record<string, unknown>;
}

export function verifyWebhook(
  rawBody: Buffer | string,
  header: string | undefined,
  secret: string | readonly string[],
  options: VerifyOptions = {},
): VerifiedEvent {
  const body = typeof rawBody === 'string' ? Buffer.from(rawBody, 'utf8') : rawBody;
  const parts = (header ?? '').split(',').map((part) => part.trim().split('='));
  const t = Number(parts.find(([key]) => key === 't')?.[1]);
  const signatures = parts.filter(([key, value]) => key === 'sha256' && /^[0-9a-f]{64}$/i.test(value ?? ''));
  if (!Number.isSafeInteger(t) || !signatures.length) {
    throw new WebhookVerificationError('malformed_header', 'Expected t=<unix seconds>,sha256=<64 hex digits>');
  }
  const secrets = typeof secret === 'string' ? [secret] : secret;
  const expected = secrets.map((s) => createHmac('sha256', s).update(body).digest());
  const matches = signatures.some(([, hex]) => expected.some((e) => timingSafeEqual(Buffer.from(hex, 'hex'), e)));
  if (!matches) throw new WebhookVerificationError('bad_signature', 'The signature does not match the body');
  const event = JSON.parse(body.toString('utf8')) as VerifiedEvent;
  if (event.timestamp !== t) {
    throw new WebhookVerificationError('timestamp_mismatch', 'The body timestamp differs from the signed t');
  }
  const now = options.now ?? Math.floor(Date.now() / 1000);
  if (Math.abs(now - t) > (options.toleranceSeconds ?? 300)) {
    throw new WebhookVerificationError('timestamp_out_of_range', `Timestamp ${t} is too far from now (${now})`);
  }
  return event;
}
