import { SendResult, decideOutcome, disabledOutcome } from './delivery-outcome';

const first = new Date('2026-01-01T00:00:00Z');
const claim = (attempts: number, firstAttemptAt: Date | null = first) => ({
  id: 'whd_1',
  claimId: 'c1',
  attempts,
  firstAttemptAt,
});
const result = (kind: SendResult['kind'], statusCode: number | null = null): SendResult => ({
  kind,
  statusCode,
  error: kind === 'delivered' ? null : 'why',
  durationMs: 12,
});
const at = (ms: number) => new Date(first.getTime() + ms);

describe('decideOutcome', () => {
  it('ends the delivery on a 2xx', () => {
    expect(decideOutcome(claim(0, null), result('delivered', 204), first)).toMatchObject({
      status: 'delivered',
      nextAttemptAt: null,
      statusCode: 204,
      counted: 1,
    });
  });

  it.each(['http_error', 'timeout', 'network_error', 'blocked', 'invalid_url'] as const)(
    'retries after %s on the schedule, the first attempt opening the window',
    (kind) => {
      expect(decideOutcome(claim(0, null), result(kind), first)).toMatchObject({
        status: 'pending',
        nextAttemptAt: at(30_000),
        error: 'why',
      });
      expect(decideOutcome(claim(5), result(kind), at(9_000_000)).nextAttemptAt).toEqual(at(9_000_000 + 6 * 3_600_000));
    },
  );

  it('dead-letters when the 7-day window is over', () => {
    const outcome = decideOutcome(claim(13), result('http_error', 503), at(7 * 86_400_000));
    expect(outcome).toMatchObject({ status: 'dead_lettered', nextAttemptAt: null, statusCode: 503 });
  });

  it('dead-letters a disabled endpoint unsent, without counting an attempt', () => {
    expect(disabledOutcome(claim(2), first)).toMatchObject({ status: 'dead_lettered', counted: 0 });
  });
});
