import { initialDomainState, transition } from './domain.machine';
import { DomainEventType, DomainInput, DomainState, MONITOR_MESSAGES } from './domain.types';

const T0 = new Date('2025-01-01T00:00:00.000Z');
const MIN = 60_000;
const HOUR = 60 * MIN;
const DAY = 24 * HOUR;
const after = (ms: number) => new Date(T0.getTime() + ms);
const iso = (ms: number) => after(ms).toISOString();

const domain = (overrides: Partial<DomainState> = {}): DomainState => {
  const state = { ...initialDomainState(T0), ...overrides };
  return { ...state, monitorMessage: MONITOR_MESSAGES[state.monitorStatus] };
};
const seen = { firstSeenCorrectDnsAt: iso(5 * MIN) };
const live = domain({ ...seen, status: 'verified', monitorStatus: 'active_ssl' });
const probe = (
  dns: 'not_resolving' | 'incorrect' | 'correct',
  certificate: 'none' | 'valid' | 'expired' | 'failed' = 'none',
  certificateMessage?: string,
): DomainInput => ({ type: 'probe_observed', dns, certificate, certificateMessage });

type Case = [string, DomainState, DomainInput, number, Partial<DomainState>, DomainEventType[]];

// prettier-ignore
const cases: Case[] = [
  // pending, DNS never correct
  // Wrong probes count only once DNS was right (the drift rule): a never-correct domain fails by time.
  ['pending: first probe, no DNS', domain(), probe('not_resolving'), 5 * MIN, { status: 'pending', monitorStatus: 'dns_not_resolving', consecutiveWrongDnsProbes: 0, lastProbeAt: iso(5 * MIN) }, ['domain.monitor_updated']],
  ['pending: the same observation again is silent and uncounted', domain({ monitorStatus: 'dns_not_resolving' }), probe('not_resolving'), 10 * MIN, { status: 'pending', consecutiveWrongDnsProbes: 0 }, []],
  ['pending: wrong DNS just under 7 days stays pending', domain({ monitorStatus: 'dns_incorrect' }), probe('incorrect'), 7 * DAY - 1, { status: 'pending', monitorStatus: 'dns_incorrect' }, []],
  ['pending: wrong DNS at 7 days fails', domain({ monitorStatus: 'dns_not_resolving' }), probe('incorrect'), 7 * DAY, { status: 'failed', statusReason: 'dns_never_correct', monitorStatus: 'dns_incorrect' }, ['domain.failed']],
  ['pending: no DNS after 8 days fails', domain({ monitorStatus: 'dns_not_resolving' }), probe('not_resolving'), 8 * DAY, { status: 'failed', statusReason: 'dns_never_correct', monitorStatus: 'dns_not_resolving' }, ['domain.failed']],
  // pending, DNS correct
  ['pending: correct DNS, no certificate yet', domain(), probe('correct'), 5 * MIN, { status: 'pending', monitorStatus: 'pending_ssl', firstSeenCorrectDnsAt: iso(5 * MIN), consecutiveWrongDnsProbes: 0 }, ['domain.monitor_updated']],
  ['pending: correct DNS and a valid certificate verify', domain({ monitorStatus: 'pending_ssl', ...seen }), probe('correct', 'valid'), 10 * MIN, { status: 'verified', monitorStatus: 'active_ssl', firstSeenCorrectDnsAt: seen.firstSeenCorrectDnsAt }, ['domain.verified']],
  ['pending: correct DNS resets the wrong count', domain({ monitorStatus: 'dns_incorrect', consecutiveWrongDnsProbes: 4 }), probe('correct', 'valid'), 10 * DAY, { status: 'verified', consecutiveWrongDnsProbes: 0 }, ['domain.verified']],
  ['pending: correct DNS, failed certificate', domain({ monitorStatus: 'pending_ssl', ...seen }), probe('correct', 'failed', 'CAA forbids'), 10 * MIN, { status: 'pending', monitorStatus: 'ssl_failed', certificateError: 'CAA forbids' }, ['domain.monitor_updated']],
  ['pending: correct DNS, expired certificate waits for a new one', domain(), probe('correct', 'expired'), 10 * MIN, { status: 'pending', monitorStatus: 'pending_ssl' }, ['domain.monitor_updated']],
  ['pending: once correct, 3 wrong probes fail', domain({ ...seen, monitorStatus: 'dns_incorrect', consecutiveWrongDnsProbes: 2 }), probe('incorrect'), 30 * MIN, { status: 'failed', statusReason: 'dns_drift', consecutiveWrongDnsProbes: 3 }, ['domain.failed']],
  ['pending: once correct, the 7-day rule no longer applies', domain({ ...seen, monitorStatus: 'dns_incorrect', consecutiveWrongDnsProbes: 1 }), probe('incorrect'), 30 * DAY, { status: 'pending', consecutiveWrongDnsProbes: 2 }, []],
  // verified
  ['verified: first wrong probe is drift, not failure', live, probe('incorrect', 'valid'), DAY, { status: 'verified', monitorStatus: 'dns_incorrect', consecutiveWrongDnsProbes: 1 }, ['domain.monitor_updated']],
  ['verified: second wrong probe', domain({ ...live, monitorStatus: 'dns_incorrect', consecutiveWrongDnsProbes: 1 }), probe('not_resolving'), DAY, { status: 'verified', monitorStatus: 'dns_not_resolving', consecutiveWrongDnsProbes: 2 }, ['domain.monitor_updated']],
  ['verified: third wrong probe in a row fails', domain({ ...live, monitorStatus: 'dns_incorrect', consecutiveWrongDnsProbes: 2 }), probe('incorrect'), DAY, { status: 'failed', statusReason: 'dns_drift', monitorStatus: 'dns_incorrect' }, ['domain.failed']],
  ['verified: a correct probe resets the count', domain({ ...live, monitorStatus: 'dns_incorrect', consecutiveWrongDnsProbes: 2 }), probe('correct', 'valid'), DAY, { status: 'verified', monitorStatus: 'active_ssl', consecutiveWrongDnsProbes: 0 }, ['domain.monitor_updated']],
  ['verified: all well is silent', live, probe('correct', 'valid'), DAY, { status: 'verified', monitorStatus: 'active_ssl', lastProbeAt: iso(DAY) }, []],
  ['verified: a probe seeing an expired certificate expires', live, probe('correct', 'expired'), 90 * DAY, { status: 'expired', statusReason: 'certificate_expired', monitorStatus: 'ssl_expired' }, ['domain.expired']],
  ['verified: certificate missing shows pending_ssl', live, probe('correct', 'none'), DAY, { status: 'verified', monitorStatus: 'pending_ssl' }, ['domain.monitor_updated']],
  // failed
  ['failed (drift): correct DNS returns to pending', domain({ ...seen, status: 'failed', statusReason: 'dns_drift', monitorStatus: 'dns_incorrect', consecutiveWrongDnsProbes: 5 }), probe('correct'), DAY, { status: 'pending', statusReason: undefined, monitorStatus: 'pending_ssl', consecutiveWrongDnsProbes: 0 }, ['domain.monitor_updated']],
  ['failed (never correct): correct DNS and certificate verify at once', domain({ status: 'failed', statusReason: 'dns_never_correct', monitorStatus: 'dns_not_resolving' }), probe('correct', 'valid'), 9 * DAY, { status: 'verified', statusReason: undefined, monitorStatus: 'active_ssl', firstSeenCorrectDnsAt: iso(9 * DAY) }, ['domain.verified']],
  ['failed (origin blocked): DNS does not lift it', domain({ ...seen, status: 'failed', statusReason: 'origin_blocked', monitorStatus: 'target_not_loading' }), probe('correct', 'valid'), DAY, { status: 'failed', statusReason: 'origin_blocked', monitorStatus: 'target_not_loading' }, []],
  ['failed (drift): still wrong, monitor follows DNS', domain({ ...seen, status: 'failed', statusReason: 'dns_drift', monitorStatus: 'dns_incorrect', consecutiveWrongDnsProbes: 3 }), probe('not_resolving'), DAY, { status: 'failed', monitorStatus: 'dns_not_resolving', consecutiveWrongDnsProbes: 4 }, ['domain.monitor_updated']],
  // origin blocked (SSRF)
  ['pending: blocked origin fails at once', domain({ monitorStatus: 'pending_ssl', ...seen }), { type: 'origin_blocked' }, MIN, { status: 'failed', statusReason: 'origin_blocked', monitorStatus: 'target_not_loading' }, ['domain.failed']],
  ['verified: blocked origin fails at once', live, { type: 'origin_blocked' }, MIN, { status: 'failed', statusReason: 'origin_blocked', monitorStatus: 'target_not_loading' }, ['domain.failed']],
  ['failed (origin blocked): an allowed origin returns it to pending', domain({ ...seen, status: 'failed', statusReason: 'origin_blocked', monitorStatus: 'target_not_loading' }), { type: 'origin_allowed' }, MIN, { status: 'pending', statusReason: undefined, monitorStatus: 'unknown' }, ['domain.monitor_updated']],
  ['failed (DNS drift): an allowed origin changes nothing', domain({ ...seen, status: 'failed', statusReason: 'dns_drift', monitorStatus: 'dns_incorrect' }), { type: 'origin_allowed' }, MIN, { status: 'failed', statusReason: 'dns_drift' }, []],
  ['failed (drift): blocked origin takes over the reason', domain({ status: 'failed', statusReason: 'dns_drift', monitorStatus: 'dns_incorrect' }), { type: 'origin_blocked' }, MIN, { status: 'failed', statusReason: 'origin_blocked', monitorStatus: 'target_not_loading' }, ['domain.monitor_updated']],
  ['expired: blocked origin changes nothing', domain({ status: 'expired', statusReason: 'billing_ended' }), { type: 'origin_blocked' }, MIN, { status: 'expired', statusReason: 'billing_ended', monitorStatus: 'unknown' }, []],
  // certificates
  ['verified: renewal reports itself', live, { type: 'certificate_issued', expiresAt: iso(90 * DAY) }, DAY, { status: 'verified', monitorStatus: 'active_ssl', certificateExpiresAt: iso(90 * DAY) }, ['domain.monitor_updated']],
  ['verified: renewal after a failure clears it, one event', domain({ ...live, monitorStatus: 'ssl_failed', certificateError: 'x' }), { type: 'certificate_issued', expiresAt: iso(90 * DAY) }, DAY, { monitorStatus: 'active_ssl', certificateError: undefined }, ['domain.monitor_updated']],
  ['pending: certificate issued while DNS is correct verifies', domain({ ...seen, monitorStatus: 'pending_ssl' }), { type: 'certificate_issued', expiresAt: iso(90 * DAY) }, HOUR, { status: 'verified', monitorStatus: 'active_ssl', certificateExpiresAt: iso(90 * DAY) }, ['domain.verified']],
  ['pending: certificate issued while DNS is wrong waits', domain({ ...seen, monitorStatus: 'dns_incorrect', consecutiveWrongDnsProbes: 1 }), { type: 'certificate_issued', expiresAt: iso(90 * DAY) }, HOUR, { status: 'pending', monitorStatus: 'dns_incorrect', certificateExpiresAt: iso(90 * DAY) }, []],
  // pre-validation: the certificate came through the _acme-challenge delegation before DNS moved
  ['pending: certificate issued before DNS ever pointed at us is ready to switch', domain(), { type: 'certificate_issued', expiresAt: iso(90 * DAY) }, HOUR, { status: 'pending', monitorStatus: 'ready_to_switch', monitorMessage: 'Ready: the certificate is issued, switch your DNS to us now' }, ['domain.ready_to_switch']],
  ['pending ready: a wrong probe keeps it ready, silently', domain({ monitorStatus: 'ready_to_switch', certificateExpiresAt: iso(90 * DAY) }), probe('incorrect', 'valid'), DAY, { status: 'pending', monitorStatus: 'ready_to_switch' }, []],
  ['pending ready: never failed for never-correct DNS after 7 days', domain({ monitorStatus: 'ready_to_switch', certificateExpiresAt: iso(90 * DAY) }), probe('not_resolving', 'valid'), 30 * DAY, { status: 'pending', monitorStatus: 'ready_to_switch' }, []],
  ['pending ready: the cutover verifies at the first correct probe', domain({ monitorStatus: 'ready_to_switch', certificateExpiresAt: iso(90 * DAY) }), probe('correct', 'valid'), DAY, { status: 'verified', monitorStatus: 'active_ssl' }, ['domain.verified']],
  ['pending ready: a lapsed certificate shows the DNS to fix again', domain({ monitorStatus: 'ready_to_switch' }), probe('incorrect', 'expired'), DAY, { status: 'pending', monitorStatus: 'dns_incorrect' }, ['domain.monitor_updated']],
  ['expired (certificate): a new certificate re-verifies', domain({ ...seen, status: 'expired', statusReason: 'certificate_expired', monitorStatus: 'ssl_expired' }), { type: 'certificate_issued', expiresAt: iso(180 * DAY) }, 91 * DAY, { status: 'verified', statusReason: undefined, monitorStatus: 'active_ssl' }, ['domain.verified']],
  ['expired (billing): a new certificate changes nothing', domain({ ...seen, status: 'expired', statusReason: 'billing_ended' }), { type: 'certificate_issued', expiresAt: iso(180 * DAY) }, 91 * DAY, { status: 'expired', monitorStatus: 'unknown' }, []],
  ['pending: certificate failure shows ssl_failed, status stays', domain({ ...seen, monitorStatus: 'pending_ssl' }), { type: 'certificate_failed', reason: 'CAA forbids' }, HOUR, { status: 'pending', monitorStatus: 'ssl_failed', certificateError: 'CAA forbids' }, ['domain.monitor_updated']],
  ['verified: renewal failure shows ssl_failed, status stays', live, { type: 'certificate_failed', reason: 'rate limited' }, HOUR, { status: 'verified', monitorStatus: 'ssl_failed', certificateError: 'rate limited' }, ['domain.monitor_updated']],
  ['failed: certificate failure is only recorded', domain({ status: 'failed', statusReason: 'dns_drift', monitorStatus: 'dns_incorrect' }), { type: 'certificate_failed', reason: 'no DNS' }, HOUR, { status: 'failed', monitorStatus: 'dns_incorrect', certificateError: 'no DNS' }, []],
  ['verified: certificate expired without renewal', live, { type: 'certificate_expired' }, 90 * DAY, { status: 'expired', statusReason: 'certificate_expired', monitorStatus: 'ssl_expired' }, ['domain.expired']],
  ['pending: certificate expired only shows ssl_expired', domain({ ...seen, monitorStatus: 'pending_ssl' }), { type: 'certificate_expired' }, 90 * DAY, { status: 'pending', monitorStatus: 'ssl_expired' }, ['domain.monitor_updated']],
  ['failed: certificate expired changes nothing', domain({ status: 'failed', statusReason: 'dns_drift', monitorStatus: 'dns_incorrect' }), { type: 'certificate_expired' }, 90 * DAY, { status: 'failed', monitorStatus: 'dns_incorrect' }, []],
  // billing
  ['verified: billing ended expires', live, { type: 'billing_ended' }, 30 * DAY, { status: 'expired', statusReason: 'billing_ended', monitorStatus: 'active_ssl' }, ['domain.expired']],
  ['pending: billing ended expires', domain(), { type: 'billing_ended' }, DAY, { status: 'expired', statusReason: 'billing_ended' }, ['domain.expired']],
  ['failed: billing ended expires', domain({ status: 'failed', statusReason: 'dns_drift' }), { type: 'billing_ended' }, DAY, { status: 'expired', statusReason: 'billing_ended' }, ['domain.expired']],
  ['expired (certificate): billing ended makes it stick, silently', domain({ status: 'expired', statusReason: 'certificate_expired', monitorStatus: 'ssl_expired' }), { type: 'billing_ended' }, DAY, { status: 'expired', statusReason: 'billing_ended' }, []],
  ['expired (billing): a perfect probe changes nothing', domain({ ...seen, status: 'expired', statusReason: 'billing_ended', monitorStatus: 'active_ssl' }), probe('correct', 'valid'), DAY, { status: 'expired', monitorStatus: 'active_ssl', lastProbeAt: iso(DAY) }, []],
  ['expired (certificate): correct DNS with a valid certificate re-verifies', domain({ ...seen, status: 'expired', statusReason: 'certificate_expired', monitorStatus: 'ssl_expired' }), probe('correct', 'valid'), DAY, { status: 'verified', monitorStatus: 'active_ssl' }, ['domain.verified']],
  ['expired (certificate): wrong DNS changes nothing visible', domain({ ...seen, status: 'expired', statusReason: 'certificate_expired', monitorStatus: 'ssl_expired' }), probe('incorrect'), DAY, { status: 'expired', monitorStatus: 'ssl_expired' }, []],
  // deletion
  ['pending: deleted', domain(), { type: 'deleted' }, MIN, { deleted: true, status: 'pending' }, ['domain.deleted']],
  ['verified: deleted', live, { type: 'deleted' }, MIN, { deleted: true, status: 'verified', monitorStatus: 'active_ssl' }, ['domain.deleted']],
  ['expired: deleted', domain({ status: 'expired', statusReason: 'billing_ended' }), { type: 'deleted' }, MIN, { deleted: true, status: 'expired' }, ['domain.deleted']],
];

describe('transition', () => {
  it.each(cases)('%s', (_, state, input, at, expected, eventTypes) => {
    const result = transition(state, input, after(at));
    expect(result.state).toMatchObject(expected);
    expect(result.state.monitorMessage).toBe(MONITOR_MESSAGES[result.state.monitorStatus]);
    expect(result.events.map((event) => event.type)).toEqual(eventTypes);
  });

  it('starts pending and unknown', () => {
    expect(initialDomainState(T0)).toEqual({
      status: 'pending',
      monitorStatus: 'unknown',
      monitorMessage: 'Setup in progress',
      deleted: false,
      createdAt: '2025-01-01T00:00:00.000Z',
      consecutiveWrongDnsProbes: 0,
    });
  });

  it('describes the change in the event', () => {
    const { events } = transition(
      domain({ ...seen, monitorStatus: 'pending_ssl' }),
      probe('correct', 'valid'),
      after(DAY),
    );
    expect(events).toEqual([
      {
        type: 'domain.verified',
        at: iso(DAY),
        status: 'verified',
        previousStatus: 'pending',
        monitorStatus: 'active_ssl',
        monitorMessage: 'Your site is live',
      },
    ]);
    const failed = transition(live, { type: 'origin_blocked' }, after(DAY)).events[0];
    expect(failed).toMatchObject({ type: 'domain.failed', reason: 'origin_blocked', previousStatus: 'verified' });
    const renewed = transition(live, { type: 'certificate_issued', expiresAt: iso(99 * DAY) }, after(DAY)).events[0];
    expect(renewed).toMatchObject({ type: 'domain.monitor_updated', certificateRenewed: true, status: 'verified' });
  });

  it('ignores every input once deleted', () => {
    const gone = transition(live, { type: 'deleted' }, after(MIN)).state;
    for (const input of [probe('correct', 'valid'), { type: 'deleted' } as const, { type: 'billing_ended' } as const]) {
      const result = transition(gone, input, after(DAY));
      expect(result.state).toBe(gone);
      expect(result.events).toEqual([]);
    }
  });
});

describe('a hostname claimed by another workspace', () => {
  it.each([
    ['pending', domain()],
    ['verified', live],
    [
      'failed for DNS',
      domain({ ...seen, status: 'failed', statusReason: 'dns_drift', monitorStatus: 'dns_incorrect' }),
    ],
  ])('fails a %s domain with moved_to_another_owner, one domain.failed', (_name, before) => {
    const { state, events } = transition(before, { type: 'hostname_claimed' }, after(HOUR));
    expect(state).toMatchObject({ status: 'failed', statusReason: 'moved_to_another_owner' });
    expect(state.monitorMessage).toMatch(/Another workspace proved control/);
    expect(events.map((e) => [e.type, e.reason])).toEqual([['domain.failed', 'moved_to_another_owner']]);
  });

  it('is final: probes, certificates and origins change nothing; a delete still works', () => {
    const moved = transition(live, { type: 'hostname_claimed' }, after(HOUR)).state;
    const inputs: DomainInput[] = [
      probe('correct', 'valid'),
      probe('incorrect'),
      { type: 'origin_blocked' },
      { type: 'origin_allowed' },
      { type: 'certificate_issued', expiresAt: iso(90 * DAY) },
      { type: 'hostname_claimed' },
    ];
    for (const input of inputs) expect(transition(moved, input, after(2 * HOUR))).toEqual({ state: moved, events: [] });
    expect(transition(moved, { type: 'deleted' }, after(2 * HOUR)).events.map((e) => e.type)).toEqual([
      'domain.deleted',
    ]);
  });
});

describe('a named DNS problem', () => {
  const stray = { kind: 'stray_aaaa' as const, hostname: 'a.com', aaaa: ['2001:db8::1'] };
  const wrongWith = (problem: typeof stray): DomainInput => ({
    type: 'probe_observed',
    dns: 'incorrect',
    certificate: 'none',
    problem,
  });

  it('replaces the generic dns_incorrect message and goes away with correct DNS', () => {
    const wrong = transition(domain(), wrongWith(stray), after(MIN)).state;
    expect(wrong.monitorStatus).toBe('dns_incorrect');
    expect(wrong.monitorMessage).toMatch(/^Delete the AAAA record of a\.com \(2001:db8::1\)/);
    const fixed = transition(wrong, probe('correct'), after(2 * MIN)).state;
    expect(fixed.dnsProblem).toBeUndefined();
    expect(fixed.monitorMessage).toBe(MONITOR_MESSAGES.pending_ssl);
  });

  it('a wrong probe without a named problem shows the generic message again', () => {
    const wrong = transition(domain(), wrongWith(stray), after(MIN)).state;
    const plain = transition(wrong, probe('incorrect'), after(2 * MIN)).state;
    expect(plain.monitorMessage).toBe(MONITOR_MESSAGES.dns_incorrect);
  });
});
