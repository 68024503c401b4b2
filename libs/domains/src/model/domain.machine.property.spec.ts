import fc from 'fast-check';
import { initialDomainState, statusEventType, transition } from './domain.machine';
import { NEVER_CORRECT_DNS_GRACE_MS } from './domain.rules';
import { DOMAIN_STATUSES, DomainInput, DomainState, MONITOR_MESSAGES, MONITOR_STATUSES } from './domain.types';

const T0 = new Date('2025-01-01T00:00:00.000Z');
const DAY = 24 * 60 * 60 * 1000;

const inputArb: fc.Arbitrary<DomainInput> = fc.oneof(
  {
    arbitrary: fc.record({
      type: fc.constant('probe_observed' as const),
      dns: fc.constantFrom('not_resolving' as const, 'incorrect' as const, 'correct' as const),
      certificate: fc.constantFrom('none' as const, 'valid' as const, 'expired' as const, 'failed' as const),
    }),
    weight: 8,
  },
  { arbitrary: fc.constant({ type: 'origin_blocked' as const }), weight: 1 },
  { arbitrary: fc.constant({ type: 'origin_allowed' as const }), weight: 1 },
  {
    arbitrary: fc.integer({ min: 1, max: 400 }).map((days) => ({
      type: 'certificate_issued' as const,
      expiresAt: new Date(T0.getTime() + days * DAY).toISOString(),
    })),
    weight: 2,
  },
  { arbitrary: fc.string().map((reason) => ({ type: 'certificate_failed' as const, reason })), weight: 1 },
  { arbitrary: fc.constant({ type: 'certificate_expired' as const }), weight: 1 },
  { arbitrary: fc.constant({ type: 'billing_ended' as const }), weight: 1 },
  { arbitrary: fc.constant({ type: 'deleted' as const }), weight: 1 },
);

/** Inputs with strictly increasing times: probes every few minutes up to a few days apart. */
const historyArb = fc.array(fc.tuple(inputArb, fc.integer({ min: 1, max: 3 * DAY })), { maxLength: 60 });

/** Runs a history, checking `check` on every step. */
function run(
  history: Array<[DomainInput, number]>,
  check: (before: DomainState, input: DomainInput, after: ReturnType<typeof transition>) => void,
) {
  let state = initialDomainState(T0);
  let now = T0.getTime();
  for (const [input, gap] of history) {
    now += gap;
    const result = transition(state, input, new Date(now));
    check(state, input, result);
    state = result.state;
  }
}

describe('domain machine properties', () => {
  it('never leaves a deleted domain, and emits nothing for it', () => {
    fc.assert(
      fc.property(historyArb, (history) => {
        run(history, (before, _input, result) => {
          if (!before.deleted) return;
          expect(result.state).toBe(before);
          expect(result.events).toEqual([]);
        });
      }),
    );
  });

  it('emits exactly one event, the new status event, for every status change', () => {
    fc.assert(
      fc.property(historyArb, (history) => {
        run(history, (before, _input, { state, events }) => {
          if (state.status === before.status) return;
          expect(events.map((event) => event.type)).toEqual([statusEventType(state.status)]);
          expect(events[0]).toMatchObject({ status: state.status, previousStatus: before.status });
        });
      }),
    );
  });

  it('reports every monitorStatus change with monitor_updated or a status event', () => {
    fc.assert(
      fc.property(historyArb, (history) => {
        run(history, (before, _input, { state, events }) => {
          if (state.monitorStatus === before.monitorStatus) return;
          expect(events).toHaveLength(1);
          const expected =
            state.monitorStatus === 'ready_to_switch' ? 'domain.ready_to_switch' : 'domain.monitor_updated';
          expect([expected, statusEventType(state.status)]).toContain(events[0].type);
          expect(events[0].monitorStatus).toBe(state.monitorStatus);
        });
      }),
    );
  });

  it('keeps status, monitorStatus and monitorMessage within their sets, and emits at most one event', () => {
    fc.assert(
      fc.property(historyArb, (history) => {
        run(history, (_before, _input, { state, events }) => {
          expect(DOMAIN_STATUSES).toContain(state.status);
          expect(MONITOR_STATUSES).toContain(state.monitorStatus);
          expect(state.monitorMessage).toBe(MONITOR_MESSAGES[state.monitorStatus]);
          expect(events.length).toBeLessThanOrEqual(1);
        });
      }),
    );
  });

  it('emits nothing when neither status, monitorStatus nor deletion changed, except a renewal', () => {
    fc.assert(
      fc.property(historyArb, (history) => {
        run(history, (before, input, { state, events }) => {
          const changed =
            state.status !== before.status || state.monitorStatus !== before.monitorStatus || state.deleted;
          const renewal = input.type === 'certificate_issued' && before.status === 'verified';
          if (!changed && !renewal) expect(events).toEqual([]);
        });
      }),
    );
  });

  it('behaves the same on a snapshot that went through JSON', () => {
    fc.assert(
      fc.property(historyArb, inputArb, (history, input) => {
        run(history, (_before, _input, { state }) => {
          const copy = JSON.parse(JSON.stringify(state)) as DomainState;
          const now = new Date(T0.getTime() + 400 * DAY);
          expect(transition(copy, input, now)).toEqual(transition(state, input, now));
        });
      }),
      { numRuns: 50 },
    );
  });

  it('never fails a domain for never-correct DNS before 7 days', () => {
    const wrong = fc.record({
      type: fc.constant('probe_observed' as const),
      dns: fc.constantFrom('not_resolving' as const, 'incorrect' as const),
      certificate: fc.constantFrom('none' as const, 'expired' as const, 'failed' as const),
    });
    fc.assert(
      fc.property(fc.array(fc.tuple(wrong, fc.integer({ min: 1, max: DAY })), { maxLength: 30 }), (history) => {
        run(history, (before, _input, { state, events }) => {
          const age = Date.parse(state.lastProbeAt!) - T0.getTime();
          expect(state.status).toBe(age >= NEVER_CORRECT_DNS_GRACE_MS ? 'failed' : 'pending');
          if (before.status === 'pending' && state.status === 'failed') expect(events[0].type).toBe('domain.failed');
        });
      }),
    );
  });

  it('keeps a pre-validated domain ready to switch, never failed, however long DNS waits', () => {
    const wrong = fc.record({
      type: fc.constant('probe_observed' as const),
      dns: fc.constantFrom('not_resolving' as const, 'incorrect' as const),
      certificate: fc.constant('valid' as const),
    });
    fc.assert(
      fc.property(
        fc.array(fc.tuple(wrong, fc.integer({ min: 1, max: 3 * DAY })), { minLength: 1, maxLength: 30 }),
        (history) => {
          run(history, (before, _input, { state, events }) => {
            expect(state).toMatchObject({ status: 'pending', monitorStatus: 'ready_to_switch' });
            const first = before.monitorStatus !== 'ready_to_switch';
            expect(events.map((event) => event.type)).toEqual(first ? ['domain.ready_to_switch'] : []);
          });
        },
      ),
    );
  });
});
