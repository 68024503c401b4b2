import { MAX_REGISTER_ATTEMPTS, beginConnect, effectOf, initialSaga, recordRefused, transition } from './purchase.saga';
import { SagaEffect, SagaEvent, SagaState } from './purchase-saga.types';

const at = (step: SagaState['step'], extra: Partial<SagaState> = {}): SagaState => ({
  ...initialSaga(false),
  step,
  ...extra,
});
const charged = { chargeId: 'pi_1' };

describe('purchase saga', () => {
  it.each<[string, SagaState, SagaEvent, Partial<SagaState>, string[], string[]]>([
    [
      'charge clears',
      at('charging'),
      { type: 'charged', chargeId: 'pi_1' },
      { step: 'registering', chargeId: 'pi_1' },
      ['register'],
      [],
    ],
    [
      'charge declined',
      at('charging'),
      { type: 'charge_declined', reason: 'card_declined' },
      { step: 'failed', status: 'failed' },
      [],
      ['domain_purchase.failed'],
    ],
    [
      'registered',
      at('registering', charged),
      { type: 'registered', registrarDomainId: 'r1', expiresAt: '2027-01-01T00:00:00.000Z' },
      { step: 'completed', status: 'completed', registrarDomainId: 'r1' },
      [],
      ['domain_purchase.completed'],
    ],
    [
      'registered with autoConnect',
      at('registering', { ...charged, autoConnect: true }),
      { type: 'registered', registrarDomainId: 'r1', expiresAt: 'x' },
      { step: 'connecting', status: 'pending' },
      ['create_domain'],
      [],
    ],
    [
      'registrar refuses',
      at('registering', charged),
      { type: 'registration_refused', reason: 'taken' },
      { step: 'refunding', status: 'pending' },
      ['refund'],
      [],
    ],
    [
      'domain created',
      at('connecting', charged),
      { type: 'domain_created', domainId: 'dom_1' },
      { step: 'routing', connectedDomainId: 'dom_1' },
      ['set_routing'],
      [],
    ],
    [
      'domain refused',
      at('connecting', charged),
      { type: 'connect_failed', reason: 'conflict' },
      { step: 'refunding' },
      ['refund'],
      [],
    ],
    [
      'routing set',
      at('routing', { ...charged, connectedDomainId: 'dom_1' }),
      { type: 'routing_set' },
      { step: 'completed', status: 'completed' },
      [],
      ['domain_purchase.completed'],
    ],
    [
      'routing refused',
      at('routing', { ...charged, connectedDomainId: 'dom_1' }),
      { type: 'connect_failed', reason: 'no' },
      { step: 'disconnecting' },
      ['remove_domain'],
      [],
    ],
    [
      'domain removed',
      at('disconnecting', { ...charged, connectedDomainId: 'dom_1' }),
      { type: 'domain_removed' },
      { step: 'refunding', connectedDomainId: undefined },
      ['refund'],
      [],
    ],
    [
      'refunded',
      at('refunding', charged),
      { type: 'refunded', refundId: 're_1' },
      { step: 'refunded', status: 'refunded', refundId: 're_1' },
      [],
      ['domain_purchase.failed'],
    ],
    [
      'payments down while charging',
      at('charging'),
      { type: 'effect_unavailable', effect: 'charge', reason: 'down' },
      { step: 'charging' },
      [],
      [],
    ],
    [
      'a late charge outcome',
      at('registering', charged),
      { type: 'charged', chargeId: 'pi_2' },
      { step: 'registering', chargeId: 'pi_1' },
      ['register'],
      [],
    ],
    [
      'anything after the end',
      at('completed', { ...charged, status: 'completed' }),
      { type: 'refunded', refundId: 're_1' },
      { step: 'completed', status: 'completed' },
      [],
      [],
    ],
  ])('%s', (_name, state, event, expected, effects, events) => {
    const next = transition(state, event);
    expect(next.state).toMatchObject(expected);
    expect(next.effects).toEqual(effects);
    expect(next.events).toEqual(events);
  });

  it('keeps the failure reason for the caller', () => {
    const next = transition(at('registering', charged), { type: 'registration_refused', reason: 'Contact invalid' });
    expect(next.state.failure).toEqual({ code: 'registration_failed', stage: 'register', reason: 'Contact invalid' });
    const declined = transition(at('charging'), { type: 'charge_declined', reason: 'insufficient_funds' });
    expect(declined.state.failure).toMatchObject({ code: 'billing_required', stage: 'charge' });
  });

  it('retries a registrar outage later, then refunds after the last attempt', () => {
    let state = at('registering', charged);
    for (let i = 1; i < MAX_REGISTER_ATTEMPTS; i++) {
      const next = transition(state, { type: 'effect_unavailable', effect: 'register', reason: 'timeout' });
      expect(next).toMatchObject({ retryLater: true, effects: [] });
      expect(next.state.step).toBe('registering');
      state = next.state;
    }
    const last = transition(state, { type: 'effect_unavailable', effect: 'register', reason: 'timeout' });
    expect(last.state.step).toBe('refunding');
    expect(last.effects).toEqual(['refund']);
  });

  it('keeps why a step waits until the saga moves on', () => {
    const waiting = transition(at('charging'), {
      type: 'effect_unavailable',
      effect: 'charge',
      reason: 'socket hang up',
    });
    expect(waiting.state).toMatchObject({ step: 'charging', outage: 'socket hang up' });
    const late = transition(waiting.state, { type: 'routing_set' });
    expect(late.state.outage).toBe('socket hang up');
    const moved = transition(waiting.state, { type: 'charged', chargeId: 'pi_1' });
    expect(moved.state).toMatchObject({ step: 'registering', outage: undefined });
  });

  describe('a step that can never succeed (the database refuses a value for good)', () => {
    const refused = (effect: SagaEffect): SagaEvent => ({
      type: 'effect_failed',
      effect,
      reason: 'the database refuses a value',
    });

    it.each<[string, SagaState, SagaEvent, Partial<SagaState>, string[], string[], boolean]>([
      [
        'before any charge: failed, nothing to refund',
        at('charging'),
        refused('charge'),
        { step: 'failed', status: 'failed' },
        [],
        ['domain_purchase.failed'],
        false,
      ],
      [
        'after the charge: refunded, not retried',
        at('registering', charged),
        refused('register'),
        { step: 'refunding' },
        ['refund'],
        [],
        false,
      ],
      [
        'creating the Domain: refunded',
        at('connecting', charged),
        refused('create_domain'),
        { step: 'refunding' },
        ['refund'],
        [],
        false,
      ],
      [
        'routing: the Domain is removed, then refunded',
        at('routing', { ...charged, connectedDomainId: 'dom_1' }),
        refused('set_routing'),
        { step: 'disconnecting' },
        ['remove_domain'],
        [],
        false,
      ],
      // A compensation has none of its own: the money must go back, so it is retried.
      ['refunding: retried later', at('refunding', charged), refused('refund'), { step: 'refunding' }, [], [], true],
      [
        "another step's late outcome: nothing",
        at('registering', charged),
        refused('charge'),
        { step: 'registering' },
        ['register'],
        [],
        false,
      ],
    ])('%s', (_name, state, event, expected, effects, events, retryLater) => {
      const next = transition(state, event);
      expect(next.state).toMatchObject(expected);
      expect(next).toMatchObject({ effects, events, retryLater });
      // autoConnect's steps fail as a refused connect does (registration_failed, refunded).
      if (next.state.failure) expect(next.state.failure.reason).toBe('the database refuses a value');
    });

    it('when a charge cannot be recorded, refunds it from the last recorded state', () => {
      const recorded = at('charging');
      const attempted = transition(recorded, { type: 'charged', chargeId: 'pi_9' }).state;
      const next = recordRefused(recorded, attempted, 'charge', 'the database refuses a value');
      expect(next.state).toMatchObject({ step: 'refunding', status: 'pending', chargeId: 'pi_9' });
      expect(next.state.failure).toEqual({
        code: 'bad_request',
        stage: 'charge',
        reason: 'the database refuses a value',
      });
      expect(next.effects).toEqual(['refund']);
      // Nothing else learned by the refused step is kept.
      const registered = transition(at('registering', charged), {
        type: 'registered',
        registrarDomainId: 'r1',
        expiresAt: 'x',
      });
      const undone = recordRefused(at('registering', charged), registered.state, 'register', 'no');
      expect(undone.state).toMatchObject({ step: 'refunding', chargeId: 'pi_1' });
      expect(undone.state.registrarDomainId).toBeUndefined();
    });

    it('rolls a connect call back without moving money', () => {
      const done = at('completed', { ...charged, status: 'completed', registrarDomainId: 'r1' });
      const next = transition(beginConnect(done), refused('create_domain'));
      expect(next.state).toMatchObject({
        step: 'completed',
        status: 'completed',
        connectFailure: { code: 'bad_request' },
      });
      expect(next.effects).toEqual([]);
    });
  });

  it('names the effect of every step (what recovery runs)', () => {
    expect(effectOf(at('charging'))).toBe('charge');
    expect(effectOf(at('registering'))).toBe('register');
    expect(effectOf(at('refunding'))).toBe('refund');
    expect(effectOf(at('refunded'))).toBeUndefined();
  });

  describe('a connect call on a completed purchase', () => {
    const done = at('completed', { ...charged, status: 'completed', registrarDomainId: 'r1' });
    const started = beginConnect(done, 'key-1');

    it('runs the autoConnect steps while the purchase stays completed', () => {
      expect(started).toMatchObject({ step: 'connecting', status: 'completed', connectCall: true, connectAttempts: 1 });
      expect(effectOf(started)).toBe('create_domain');
      const routing = transition(started, { type: 'domain_created', domainId: 'dom_1c1' });
      expect(routing.effects).toEqual(['set_routing']);
      const end = transition(routing.state, { type: 'routing_set' });
      expect(end.state).toMatchObject({ step: 'completed', status: 'completed', connectedDomainId: 'dom_1c1' });
      expect(end.state.connectCall).toBeUndefined();
      expect(end.state.connectRequestKey).toBe('key-1');
      // No second domain_purchase.completed: the purchase completed long ago.
      expect([...routing.events, ...end.events]).toEqual([]);
    });

    it('rolls back a failure without refunding: completed, unconnected, the error kept', () => {
      const refused = transition(started, {
        type: 'connect_failed',
        reason: 'x.com is already connected',
        code: 'conflict',
        details: { hostname: 'x.com' },
      });
      expect(refused.state).toMatchObject({ step: 'completed', status: 'completed', connectedDomainId: undefined });
      expect(refused.state.connectFailure).toEqual({
        code: 'conflict',
        reason: 'x.com is already connected',
        details: { hostname: 'x.com' },
      });
      expect(refused.effects).toEqual([]);

      const routing = transition(started, { type: 'domain_created', domainId: 'dom_1c1' }).state;
      const failed = transition(routing, {
        type: 'connect_failed',
        reason: 'custom nameservers',
        code: 'registrar_error',
      });
      expect(failed.state.step).toBe('disconnecting');
      expect(failed.effects).toEqual(['remove_domain']);
      const removed = transition(failed.state, { type: 'domain_removed' });
      expect(removed.state).toMatchObject({ step: 'completed', status: 'completed', connectedDomainId: undefined });
      expect(removed.state.connectFailure?.code).toBe('registrar_error');
      expect(removed.state.refundId).toBeUndefined();
      expect(removed.state.failure).toBeUndefined();
      expect(removed.events).toEqual([]);
    });

    it('gives every call its own attempt number (its own Domain id) and clears the last failure', () => {
      const failed = transition(started, { type: 'connect_failed', reason: 'no', code: 'conflict' }).state;
      const again = beginConnect(failed);
      expect(again).toMatchObject({ connectAttempts: 2, step: 'connecting' });
      expect(again.connectFailure).toBeUndefined();
    });
  });
});
