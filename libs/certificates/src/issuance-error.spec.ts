import { classifyIssuanceError } from './issuance-error';

const now = new Date('2026-11-21T00:00:00Z');

describe('classifyIssuanceError', () => {
  it.each([
    'CAA record for example.com prevents issuance',
    'Error creating new order :: Cannot issue for "example.local": Domain name does not end with a valid public suffix (TLD) [rejectedIdentifier]',
    'Policy forbids issuing for name',
  ])('refuses for good: %s', (message) => {
    expect(classifyIssuanceError(message, now).kind).toBe('refused');
  });

  it('waits as long as the CA says on rate limits', () => {
    const failure = classifyIssuanceError(
      'too many certificates already issued for "example.com". Retry after 2026-11-22 10:00:00 UTC: see https://letsencrypt.org/docs/rate-limits/',
      now,
    );
    expect(failure).toMatchObject({ kind: 'rate_limited', retryAt: new Date('2026-11-22T10:00:00Z') });
  });

  it('waits an hour when the CA does not say how long', () => {
    const failure = classifyIssuanceError('rateLimited: slow down', now);
    expect(failure).toMatchObject({ kind: 'rate_limited', retryAt: new Date('2026-11-21T01:00:00Z') });
  });

  it('retries anything else on a later probe', () => {
    expect(
      classifyIssuanceError('Fetching http://x/.well-known/acme-challenge/abc: Connection refused', now).kind,
    ).toBe('transient');
    expect(classifyIssuanceError('', now)).toMatchObject({ kind: 'transient', reason: expect.any(String) });
  });
});
