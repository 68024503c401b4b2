import { RateMeter } from './rate-meter';

describe('RateMeter', () => {
  let now = 1_000_000;
  const meter = () => new RateMeter(() => now);

  it('averages the marks of the last 60 seconds', () => {
    const m = meter();
    for (let s = 0; s < 60; s++) {
      m.mark(3);
      now += 1000;
    }
    expect(m.perSecond()).toBeCloseTo((3 * 59) / 60, 5);
    m.mark(3);
    expect(m.perSecond()).toBe(3);
  });

  it('forgets what is older than a minute, also after a long silence', () => {
    const m = meter();
    m.mark(600);
    expect(m.perSecond()).toBe(10);
    now += 30_000;
    expect(m.perSecond()).toBe(10);
    now += 30_000;
    expect(m.perSecond()).toBe(0);
    m.mark(60);
    now += 3_600_000;
    expect(m.perSecond()).toBe(0);
  });

  it('reads 0 before anything happened', () => {
    expect(meter().perSecond()).toBe(0);
  });
});
