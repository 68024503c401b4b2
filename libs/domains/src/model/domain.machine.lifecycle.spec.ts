import { initialDomainState, transition } from './domain.machine';
import { DomainInput } from './domain.types';

const T0 = new Date('2025-01-01T00:00:00.000Z');
const MIN = 60_000;
const DAY = 24 * 60 * MIN;
const after = (ms: number) => new Date(T0.getTime() + ms);
const iso = (ms: number) => after(ms).toISOString();
const probe = (
  dns: 'not_resolving' | 'incorrect' | 'correct',
  certificate: 'none' | 'valid' = 'none',
): DomainInput => ({
  type: 'probe_observed',
  dns,
  certificate,
});

/** Replays inputs from a fresh domain; returns the final state and the event types in order. */
function replay(steps: Array<[DomainInput, number]>) {
  let state = initialDomainState(T0);
  const types: string[] = [];
  for (const [input, at] of steps) {
    const result = transition(state, input, after(at));
    state = result.state;
    types.push(...result.events.map((event) => event.type));
  }
  return { state, types };
}

describe('a domain through its life', () => {
  it('connects, drifts, recovers, renews and is deleted', () => {
    const { state, types } = replay([
      [probe('not_resolving'), 5 * MIN],
      [probe('correct'), 10 * MIN],
      [{ type: 'certificate_issued', expiresAt: iso(90 * DAY) }, 11 * MIN],
      [probe('incorrect', 'valid'), 60 * DAY],
      [probe('correct', 'valid'), 60 * DAY + 5 * MIN],
      [{ type: 'certificate_issued', expiresAt: iso(150 * DAY) }, 61 * DAY],
      [{ type: 'deleted' }, 70 * DAY],
      [probe('incorrect'), 71 * DAY],
    ]);
    expect(types).toEqual([
      'domain.monitor_updated', // dns_not_resolving
      'domain.monitor_updated', // pending_ssl
      'domain.verified',
      'domain.monitor_updated', // drift
      'domain.monitor_updated', // back to active_ssl
      'domain.monitor_updated', // renewed
      'domain.deleted',
    ]);
    expect(state).toMatchObject({ status: 'verified', deleted: true, certificateExpiresAt: iso(150 * DAY) });
  });

  it('fails after 3 wrong probes in a row, and comes back when DNS is fixed', () => {
    const verified: Array<[DomainInput, number]> = [[probe('correct', 'valid'), MIN]];
    const { state, types } = replay([
      ...verified,
      [probe('incorrect', 'valid'), 10 * MIN],
      [probe('incorrect', 'valid'), 15 * MIN],
      [probe('correct', 'valid'), 20 * MIN], // resets the count
      [probe('incorrect', 'valid'), 25 * MIN],
      [probe('not_resolving'), 30 * MIN],
      [probe('incorrect'), 35 * MIN],
      [probe('correct'), 40 * MIN],
    ]);
    expect(types).toEqual([
      'domain.verified',
      'domain.monitor_updated', // dns_incorrect
      'domain.monitor_updated', // active_ssl again
      'domain.monitor_updated', // dns_incorrect
      'domain.monitor_updated', // dns_not_resolving
      'domain.failed',
      'domain.monitor_updated', // pending again, waiting for SSL
    ]);
    expect(state).toMatchObject({ status: 'pending', monitorStatus: 'pending_ssl', consecutiveWrongDnsProbes: 0 });
  });
});
