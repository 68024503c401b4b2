import { checkRestartsBackoff, firstProbeSeconds, pendingProbeWaits } from './pending-backoff';

describe('the pending back-off', () => {
  it('doubles from 10 s, at most 30 s apart in the first 5 minutes, then doubles while shorter than the interval', () => {
    const early = [10, 20, 30, 30, 30, 30, 30, 30, 30, 30, 30];
    expect(early.reduce((a, b) => a + b, 0)).toBe(300);
    expect(pendingProbeWaits(300)).toEqual([...early, 60, 120, 240]);
    expect(pendingProbeWaits(240)).toEqual([...early, 60, 120]);
    expect(pendingProbeWaits(3600)).toEqual([...early, 60, 120, 240, 480, 960, 1920]);
    expect(pendingProbeWaits(60)).toEqual(early);
    expect(pendingProbeWaits(31)).toEqual(early);
  });

  it('never waits more than 30 s between probes in the first 5 minutes: a fix then is seen within 30 s', () => {
    for (const interval of [31, 60, 300, 3600]) {
      let at = 0;
      for (const wait of pendingProbeWaits(interval)) {
        if (at < 300) expect(wait).toBeLessThanOrEqual(30);
        at += wait;
      }
    }
  });

  it('is the first wait alone when the interval is 20 s or less, never longer than the interval', () => {
    expect(pendingProbeWaits(30)).toEqual([10, 20]);
    expect(pendingProbeWaits(21)).toEqual([10, 20]);
    expect(pendingProbeWaits(20)).toEqual([10]);
    expect(pendingProbeWaits(15)).toEqual([10]);
    expect(pendingProbeWaits(10)).toEqual([10]);
    expect(pendingProbeWaits(5)).toEqual([5]);
    expect(pendingProbeWaits(2)).toEqual([2]);
    expect(firstProbeSeconds(300)).toBe(10);
    expect(firstProbeSeconds(2)).toBe(2);
  });

  it('ends within 12 minutes at 300 s: after it, the phase slot (a domain whose DNS never comes right costs 14 probes)', () => {
    const waits = pendingProbeWaits(300);
    expect(waits).toHaveLength(14);
    expect(waits.reduce((a, b) => a + b, 0)).toBe(720);
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
