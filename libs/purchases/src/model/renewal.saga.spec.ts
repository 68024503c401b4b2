import { RenewalState, renewalEffect, renewalTransition } from './renewal.saga';
import { priceWithFee } from './purchase-pricing';
import { mergeRoutingRecords } from './routing-records';

const renewal: RenewalState = {
  n: 1,
  years: 2,
  wholesaleCents: 2000,
  feeCents: 300,
  totalCents: 2300,
  auto: false,
  step: 'charging',
  previousExpiresAt: '2027-01-01T00:00:00.000Z',
  createdAt: '2026-01-01T00:00:00.000Z',
};

describe('renewal saga', () => {
  it('charges, renews, and is done', () => {
    const charged = renewalTransition(renewal, { type: 'charged', chargeId: 'pi_1' });
    expect(renewalEffect(charged)).toBe('renew');
    const done = renewalTransition(charged, { type: 'renewed', expiresAt: '2029-01-01T00:00:00.000Z' });
    expect(done).toMatchObject({ step: 'renewed', expiresAt: '2029-01-01T00:00:00.000Z' });
    expect(renewalEffect(done)).toBeUndefined();
    expect(renewalTransition(done, { type: 'charged', chargeId: 'pi_2' })).toBe(done);
  });

  it('fails without money moving on a decline, and refunds a registrar refusal', () => {
    expect(renewalTransition(renewal, { type: 'charge_declined', reason: 'card_declined' }).step).toBe('failed');
    const refused = renewalTransition(
      { ...renewal, step: 'renewing', chargeId: 'pi_1' },
      { type: 'renewal_refused', reason: 'locked' },
    );
    expect(refused).toMatchObject({ step: 'refunding', failure: { code: 'registrar_error', reason: 'locked' } });
    expect(renewalTransition(refused, { type: 'refunded', refundId: 're_1' }).step).toBe('refunded');
  });
});

describe('pricing', () => {
  it.each([
    [1000, 15, 200, 200, 1200],
    [2000, 15, 200, 300, 2300],
    [1999, 15, 200, 300, 2299],
    [100_000, 10, 0, 10_000, 110_000],
    [500, 0, 0, 0, 500],
  ])('wholesale %i at %i%% with a floor of %i: fee %i, total %i', (wholesale, percent, min, fee, total) => {
    expect(priceWithFee(wholesale, { percent, minCents: min })).toEqual({
      wholesaleCents: wholesale,
      feeCents: fee,
      totalCents: total,
      currency: 'USD',
    });
  });
});

describe('routing records (DESIGN decision 2)', () => {
  it('rewrites A/AAAA/CNAME at @ and www and keeps everything else', () => {
    const merged = mergeRoutingRecords(
      [
        { type: 'A', name: '@', value: '1.2.3.4', ttl: 1800 },
        { type: 'AAAA', name: '@', value: '::1', ttl: 1800 },
        { type: 'CNAME', name: 'www', value: 'parking.example', ttl: 1800 },
        { type: 'MX', name: '@', value: 'mx.mail.example', ttl: 1800, priority: 10 },
        { type: 'TXT', name: '@', value: 'v=spf1 -all', ttl: 1800 },
        { type: 'A', name: 'api', value: '5.6.7.8', ttl: 300 },
      ],
      { cnameTarget: 'edge.example.net', ipv4: ['203.0.113.10'] },
    );
    expect(merged).toEqual([
      { type: 'MX', name: '@', value: 'mx.mail.example', ttl: 1800, priority: 10 },
      { type: 'TXT', name: '@', value: 'v=spf1 -all', ttl: 1800 },
      { type: 'A', name: 'api', value: '5.6.7.8', ttl: 300 },
      { type: 'A', name: '@', value: '203.0.113.10', ttl: 1800 },
      { type: 'CNAME', name: 'www', value: 'edge.example.net', ttl: 1800 },
    ]);
  });
});
