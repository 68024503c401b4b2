import { LETS_ENCRYPT_LIMITS, issuanceLimits, orderBuckets, registeredDomain } from './issuance-limits';
import { tokensPerMs } from './token-bucket';

describe('issuance limits', () => {
  it.each([
    ['new_orders', 36],
    ['certificates_per_domain', 201.6 * 60],
    ['failed_validations', 12 * 60],
  ] as const)("refill %s at Let's Encrypt's published pace (one every %s s)", (name, seconds) => {
    expect(1 / tokensPerMs(LETS_ENCRYPT_LIMITS[name]) / 1000).toBeCloseTo(seconds, 6);
  });

  it('takes an operator’s changes over the defaults', () => {
    const limits = issuanceLimits({ new_orders: { capacity: 12_000 } });
    expect(limits.new_orders).toEqual({ name: 'new_orders', capacity: 12_000, periodSeconds: 10_800 });
    expect(limits.failed_validations).toEqual(LETS_ENCRYPT_LIMITS.failed_validations);
    expect(() => issuanceLimits({ failed_validations: { capacity: 0 } })).toThrow(RangeError);
    expect(() => issuanceLimits({ new_orders: { periodSeconds: Number.NaN } })).toThrow(RangeError);
  });

  it.each([
    ['shop.example.com', 'example.com'],
    ['example.com', 'example.com'],
    ['new.blog.example.co.uk', 'example.co.uk'],
    ['*.shop.example.co.uk', 'example.co.uk'],
    ['docs.acme.github.io', 'acme.github.io'],
    ['192.0.2.10', '192.0.2.10'],
  ])('counts %s under the registered domain %s', (hostname, registered) => {
    expect(registeredDomain(hostname)).toBe(registered);
  });

  it('names the buckets one order counts against', () => {
    expect(orderBuckets('letsencrypt', 'shop.example.com', 'example.com')).toEqual({
      new_orders: 'new_orders:letsencrypt',
      certificates_per_domain: 'certificates_per_domain:letsencrypt:example.com',
      failed_validations: 'failed_validations:letsencrypt:shop.example.com',
    });
  });
});
