import { SourceRateLimiter } from './source-rate-limiter';

const allowedOf = (limiter: SourceRateLimiter, source: string, count: number, at: number) =>
  Array.from({ length: count }, () => limiter.allow(source, at)).filter(Boolean).length;

describe('SourceRateLimiter', () => {
  it('lets one address burst twice its rate, then refills at the rate', () => {
    const limiter = new SourceRateLimiter(10);
    expect(allowedOf(limiter, '198.51.100.1', 50, 0)).toBe(20);
    expect(allowedOf(limiter, '198.51.100.1', 50, 500)).toBe(5);
    expect(allowedOf(limiter, '198.51.100.1', 50, 10_000)).toBe(20);
  });

  it('counts each address on its own', () => {
    const limiter = new SourceRateLimiter(5);
    expect(allowedOf(limiter, '198.51.100.1', 20, 0)).toBe(10);
    expect(allowedOf(limiter, '2001:db8::1', 20, 0)).toBe(10);
  });

  it('keeps at most maxSources addresses, forgetting the least recently seen', () => {
    const limiter = new SourceRateLimiter(1, 3);
    for (const source of ['a', 'b', 'c']) allowedOf(limiter, source, 2, 0);
    expect(limiter.allow('a', 0)).toBe(false);
    limiter.allow('d', 0);
    expect(limiter.size).toBe(3);
    // 'b' was the least recently seen, so it was forgotten: a full bucket again; 'a' was kept, still empty.
    expect(limiter.allow('b', 0)).toBe(true);
    expect(limiter.allow('a', 0)).toBe(false);
  });
});
