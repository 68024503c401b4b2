import fc from 'fast-check';
import { beginConnect, effectOf, initialSaga, isTerminal, transition } from './purchase.saga';
import { SagaEffect, SagaEvent, SagaState } from './purchase-saga.types';

/** Any outcome of any effect, in any order: what a flaky world (and recovery replays) can deliver. */
const event: fc.Arbitrary<SagaEvent> = fc.oneof(
  fc.constant<SagaEvent>({ type: 'charged', chargeId: 'pi_1' }),
  fc.constant<SagaEvent>({ type: 'charge_declined', reason: 'card_declined' }),
  fc.constant<SagaEvent>({ type: 'registered', registrarDomainId: 'r1', expiresAt: '2027-01-01T00:00:00Z' }),
  fc.constant<SagaEvent>({ type: 'registration_refused', reason: 'no' }),
  fc.constant<SagaEvent>({ type: 'domain_created', domainId: 'dom_1' }),
  fc.constant<SagaEvent>({ type: 'routing_set' }),
  fc.constant<SagaEvent>({ type: 'connect_failed', reason: 'no' }),
  fc.constant<SagaEvent>({ type: 'domain_removed' }),
  fc.constant<SagaEvent>({ type: 'refunded', refundId: 're_1' }),
  fc
    .constantFrom<SagaEffect>('charge', 'register', 'create_domain', 'set_routing', 'remove_domain', 'refund')
    .map((effect): SagaEvent => ({ type: 'effect_unavailable', effect, reason: 'down' })),
  fc
    .constantFrom<SagaEffect>('charge', 'register', 'create_domain', 'set_routing', 'remove_domain', 'refund')
    .map((effect): SagaEvent => ({ type: 'effect_failed', effect, reason: 'the database refuses a value' })),
);

/** Runs events, counting the charge effects asked for and the charges that landed. */
function run(autoConnect: boolean, events: SagaEvent[]) {
  let state = initialSaga(autoConnect);
  let charges = 0;
  const emitted: string[] = [];
  const steps: SagaState[] = [state];
  for (const e of events) {
    const before = state;
    const next = transition(state, e);
    if (before.step === 'charging' && next.state.step !== 'charging' && next.state.chargeId) charges++;
    state = next.state;
    emitted.push(...next.events);
    steps.push(state);
  }
  return { state, charges, emitted, steps };
}

describe('purchase saga properties', () => {
  it('never ends charged without a registration or a refund', () => {
    fc.assert(
      fc.property(fc.boolean(), fc.array(event, { maxLength: 40 }), (autoConnect, events) => {
        const { state } = run(autoConnect, events);
        if (!isTerminal(state)) return;
        if (state.chargeId) {
          const registered = state.status === 'completed' && state.registrarDomainId !== undefined;
          expect(registered || state.refundId !== undefined).toBe(true);
        }
        if (state.status === 'failed') expect(state.chargeId).toBeUndefined();
        if (state.status === 'refunded') expect(state.refundId).toBeDefined();
      }),
      { numRuns: 2000 },
    );
  });

  it('charges at most once and asks for a charge only before one landed', () => {
    fc.assert(
      fc.property(fc.boolean(), fc.array(event, { maxLength: 40 }), (autoConnect, events) => {
        const { charges, steps } = run(autoConnect, events);
        expect(charges).toBeLessThanOrEqual(1);
        for (const s of steps) if (effectOf(s) === 'charge') expect(s.chargeId).toBeUndefined();
      }),
      { numRuns: 2000 },
    );
  });

  it('keeps terminal states final and emits exactly one outcome event', () => {
    fc.assert(
      fc.property(fc.boolean(), fc.array(event, { maxLength: 40 }), fc.array(event, { maxLength: 10 }), (ac, a, b) => {
        const first = run(ac, a);
        if (!isTerminal(first.state)) return;
        expect(first.emitted).toHaveLength(1);
        let state = first.state;
        for (const e of b) {
          const next = transition(state, e);
          expect(next.state).toEqual(first.state);
          expect(next.events).toEqual([]);
          expect(next.effects).toEqual([]);
          state = next.state;
        }
      }),
      { numRuns: 1000 },
    );
  });

  it('leaves a created Domain only on a completed purchase', () => {
    fc.assert(
      fc.property(fc.array(event, { maxLength: 40 }), (events) => {
        const { state } = run(true, events);
        if (isTerminal(state) && state.status !== 'completed') expect(state.connectedDomainId).toBeUndefined();
      }),
      { numRuns: 1000 },
    );
  });

  it('a connect call on a completed purchase never moves money and ends completed, connected or not', () => {
    fc.assert(
      fc.property(fc.array(event, { maxLength: 40 }), fc.array(event, { maxLength: 40 }), (before, during) => {
        const bought = run(false, before).state;
        if (bought.status !== 'completed' || !isTerminal(bought)) return;
        let state = beginConnect(bought, 'k');
        for (const e of during) {
          const next = transition(state, e);
          expect(next.events).toEqual([]);
          expect(next.effects).not.toContain('charge');
          expect(next.effects).not.toContain('refund');
          expect(next.effects).not.toContain('register');
          state = next.state;
          expect(state.status).toBe('completed');
          expect([state.chargeId, state.refundId]).toEqual([bought.chargeId, bought.refundId]);
        }
        if (isTerminal(state)) {
          expect(state.connectCall).toBeUndefined();
          // Ended connected, or rolled back with the reason kept and no Domain left.
          if (state.connectFailure) expect(state.connectedDomainId).toBeUndefined();
          else expect(state.connectedDomainId).toBeDefined();
        }
      }),
      { numRuns: 1000 },
    );
  });
});
