import { createHmac } from 'node:crypto';
import fc from 'fast-check';
import { signatureHeader, signatureHex } from './signature';
import { WebhookVerificationError, verifyWebhook } from './verify-signature';

const SECRET = 'whsec_test0123456789';
const T = 1_795_000_000;
const body = (t = T, extra = '') => Buffer.from(`{"id":"evt_1","type":"domain.created","timestamp":${t}${extra}}`);

function reason(run: () => unknown): string | undefined {
  try {
    run();
    return undefined;
  } catch (error) {
    return error instanceof WebhookVerificationError ? error.reason : String(error);
  }
}

describe('webhook signatures', () => {
  it('is the hex HMAC-SHA256 of the raw body under the whole secret (known answer)', () => {
    expect(signatureHex('key', 'The quick brown fox jumps over the lazy dog')).toBe(
      'f7bc83f430538424b13298e6aa6fb143ef4d59a14946175997479dbc2d1a3cd8',
    );
    expect(signatureHeader(SECRET, body(), T)).toBe(
      `t=${T},sha256=${createHmac('sha256', SECRET).update(body()).digest('hex')}`,
    );
  });

  it('verifies what it signs and returns the event', () => {
    const event = verifyWebhook(body(), signatureHeader(SECRET, body(), T), SECRET, { now: T + 10 });
    expect(event).toMatchObject({ id: 'evt_1', timestamp: T });
  });

  it.each([
    ['another secret', () => verifyWebhook(body(), signatureHeader('whsec_other', body(), T), SECRET, { now: T })],
    ['a changed byte', () => verifyWebhook(body(T, ' '), signatureHeader(SECRET, body(), T), SECRET, { now: T })],
  ])('refuses %s', (_, run) => expect(reason(run)).toBe('bad_signature'));

  it.each([undefined, '', 'sha256=abc', `t=${T}`, `t=x,sha256=${'0'.repeat(64)}`, `t=${T},sha256=zz`])(
    'refuses the malformed header %j',
    (header) => expect(reason(() => verifyWebhook(body(), header, SECRET, { now: T }))).toBe('malformed_header'),
  );

  it('refuses a header t that differs from the signed body timestamp (replayed body, fresh t)', () => {
    const header = signatureHeader(SECRET, body(T), T + 600);
    expect(reason(() => verifyWebhook(body(T), header, SECRET, { now: T + 600 }))).toBe('timestamp_mismatch');
  });

  it('accepts up to 5 minutes either side, not more', () => {
    const header = signatureHeader(SECRET, body(), T);
    expect(reason(() => verifyWebhook(body(), header, SECRET, { now: T + 300 }))).toBeUndefined();
    expect(reason(() => verifyWebhook(body(), header, SECRET, { now: T - 300 }))).toBeUndefined();
    expect(reason(() => verifyWebhook(body(), header, SECRET, { now: T + 301 }))).toBe('timestamp_out_of_range');
    expect(reason(() => verifyWebhook(body(), header, SECRET, { now: T - 301 }))).toBe('timestamp_out_of_range');
  });

  it('accepts any one matching sha256 among several (rotation)', () => {
    const good = signatureHex(SECRET, body());
    const header = `t=${T},sha256=${'0'.repeat(64)},sha256=${good}`;
    expect(reason(() => verifyWebhook(body(), header, SECRET, { now: T }))).toBeUndefined();
  });

  it('signs with every secret of an overlap, current first; a receiver knowing either one verifies', () => {
    const OLD = 'whsec_old0123456789';
    const header = signatureHeader([SECRET, OLD], body(), T);
    expect(header).toBe(`t=${T},sha256=${signatureHex(SECRET, body())},sha256=${signatureHex(OLD, body())}`);
    expect(reason(() => verifyWebhook(body(), header, SECRET, { now: T }))).toBeUndefined();
    expect(reason(() => verifyWebhook(body(), header, OLD, { now: T }))).toBeUndefined();
    expect(reason(() => verifyWebhook(body(), header, 'whsec_neither', { now: T }))).toBe('bad_signature');
    // After the overlap only the new one signs: the old secret alone no longer verifies.
    const after = signatureHeader([SECRET], body(), T);
    expect(reason(() => verifyWebhook(body(), after, OLD, { now: T }))).toBe('bad_signature');
    // A receiver deploying the new secret may pass both it and the old one.
    expect(reason(() => verifyWebhook(body(), after, [OLD, SECRET], { now: T }))).toBeUndefined();
    expect(reason(() => verifyWebhook(body(), after, [], { now: T }))).toBe('bad_signature');
  });

  it('never accepts a body it did not sign (property)', () => {
    fc.assert(
      fc.property(fc.string(), fc.string(), (extraA, extraB) => {
        fc.pre(extraA !== extraB);
        const a = body(T, `,"x":${JSON.stringify(extraA)}`);
        const b = body(T, `,"x":${JSON.stringify(extraB)}`);
        return reason(() => verifyWebhook(b, signatureHeader(SECRET, a, T), SECRET, { now: T })) === 'bad_signature';
      }),
    );
  });
});
