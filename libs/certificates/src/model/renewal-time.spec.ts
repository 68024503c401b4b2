import fc from 'fast-check';
import { renewalTime } from './renewal-time';

const DAY = 86_400_000;
const issued = new Date('2026-11-01T00:00:00Z');
const validity = (days: number) => ({ notBefore: issued, notAfter: new Date(issued.getTime() + days * DAY) });

describe('renewalTime', () => {
  it.each([
    [90, 0, 45],
    [90, 0.999999, 60],
    [6, 0, 3],
    [6, 0.999999, 4],
  ])('a %i-day certificate with draw %f renews on day %f (between a half and a third left)', (days, draw, day) => {
    const at = renewalTime(validity(days), draw, issued);
    expect(Math.abs(at.getTime() - (issued.getTime() + day * DAY))).toBeLessThan(5_000);
  });

  it('picks inside the CA window, and now once the window has passed', () => {
    const window = { start: new Date('2026-12-01T00:00:00Z'), end: new Date('2026-12-02T00:00:00Z') };
    expect(renewalTime(validity(90), 0.5, issued, window)).toEqual(new Date('2026-12-01T12:00:00Z'));
    const late = new Date('2026-12-03T00:00:00Z');
    expect(renewalTime(validity(90), 0.5, late, window)).toEqual(late);
    // Inside the window already: the rest of it, never the past.
    const inside = new Date('2026-12-01T18:00:00Z');
    expect(renewalTime(validity(90), 0, inside, window)).toEqual(inside);
  });

  it('always lands inside the validity, and inside a future window', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 400 }), fc.double({ min: 0, max: 0.999999, noNaN: true }), (days, draw) => {
        const v = validity(days);
        const at = renewalTime(v, draw, issued).getTime();
        return at > v.notBefore.getTime() && at < v.notAfter.getTime();
      }),
    );
  });
});
