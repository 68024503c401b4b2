import { checkRestartsBackoff, firstProbeSeconds, pendingProbeWaits } from './pending-backoff';

describe('the pending back-off', () => {
  it('doubles from 10 s while shorter than the interval', () => {
    expect(pendingProbeWaits(300)).toEqual([10, 20, 40, 80, 160]);
    expect(pendingProbeWaits(320)).toEqual([10, 20, 40, 80, 160]);
    expect(pendingProbeWaits(321)).toEqual([10, 20, 40, 80, 160, 320]);
    expect(pendingProbeWaits(3600)).toEqual([10, 20, 40, 80, 160, 320, 640, 1280, 2560]);
  });

  it('is the first wait alone when the interval is 20 s or less, never longer than the interval', () => {
    expect(pendingProbeWaits(21)).toEqual([10, 20]);
    expect(pendingProbeWaits(20)).toEqual([10]);
    expect(pendingProbeWaits(15)).toEqual([10]);
    expect(pendingProbeWaits(10)).toEqual([10]);
    expect(pendingProbeWaits(5)).toEqual([5]);
    expect(pendingProbeWaits(2)).toEqual([2]);
    expect(firstProbeSeconds(300)).toBe(10);
    expect(firstProbeSeconds(2)).toBe(2);
  });

  it('adds up to about one interval at 300 s: the back-off ends within the time one interval would take', () => {
    const total = pendingProbeWaits(300).reduce((a, b) => a + b, 0);
    expect(total).toBe(310);
  });

  it('restarts on a check of any domain not verified, except one taken over by another workspace', () => {
    expect(checkRestartsBackoff({ status: 'pending' })).toBe(true);
    expect(checkRestartsBackoff({ status: 'failed', statusReason: 'dns_never_correct' })).toBe(true);
    expect(checkRestartsBackoff({ status: 'failed', statusReason: 'dns_drift' })).toBe(true);
    expect(checkRestartsBackoff({ status: 'expired' })).toBe(true);
    expect(checkRestartsBackoff({ status: 'verified' })).toBe(false);
    expect(checkRestartsBackoff({ status: 'failed', statusReason: 'moved_to_another_owner' })).toBe(false);
  });
});
