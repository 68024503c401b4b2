import {
  ConnectFailure,
  SagaEffect,
  SagaEvent,
  SagaFailure,
  SagaResult,
  SagaState,
  TERMINAL_STEPS,
} from './purchase-saga.types';

/** Registrar outages tolerated before a charged purchase is given up and refunded. */
export const MAX_REGISTER_ATTEMPTS = 5;

export function initialSaga(autoConnect: boolean): SagaState {
  return { status: 'pending', step: 'charging', autoConnect, registerAttempts: 0 };
}

export const isTerminal = (state: SagaState) => TERMINAL_STEPS.includes(state.step);

/** The effect the current step asks for (what recovery runs after a crash), or none at the end. */
export function effectOf(state: SagaState): SagaEffect | undefined {
  switch (state.step) {
    case 'charging':
      return 'charge';
    case 'registering':
      return 'register';
    case 'connecting':
      return 'create_domain';
    case 'routing':
      return 'set_routing';
    case 'disconnecting':
      return 'remove_domain';
    case 'refunding':
      return 'refund';
    case 'completed':
    case 'failed':
    case 'refunded':
      return undefined;
  }
}

const result = (state: SagaState, events: SagaResult['events'] = [], retryLater = false): SagaResult => {
  const effect = retryLater ? undefined : effectOf(state);
  return { state, effects: effect ? [effect] : [], events, retryLater };
};

const unchanged = (state: SagaState) => result(state, [], false);

/**
 * The purchase saga (SPEC 3.2, DESIGN decisions 1 and 2), pure: charge, register, optionally
 * connect, complete; a refusal after the charge refunds it; a failed autoConnect removes the Domain
 * and refunds. A later connect call (`beginConnect`) runs the same connect steps; its failure
 * removes the Domain and ends completed and unconnected. Events that do not fit the step (late or duplicated outcomes) change nothing, and
 * terminal steps are final. A step that waits for a retry keeps the outage's reason (`outage`) until
 * the saga moves on.
 */
export function transition(state: SagaState, event: SagaEvent): SagaResult {
  const next = step(state, event);
  if (next.retryLater && 'reason' in event) return { ...next, state: { ...next.state, outage: event.reason } };
  if (next.state === state || next.state.outage === undefined) return next;
  return { ...next, state: { ...next.state, outage: undefined } };
}

function step(state: SagaState, event: SagaEvent): SagaResult {
  if (isTerminal(state)) return unchanged(state);
  if (event.type === 'effect_unavailable') return unavailable(state, event.effect, event.reason);
  if (event.type === 'effect_failed') return failedForGood(state, event.effect, event.reason);
  switch (state.step) {
    case 'charging':
      if (event.type === 'charged') return result({ ...state, step: 'registering', chargeId: event.chargeId });
      if (event.type === 'charge_declined') {
        const failure: SagaFailure = { code: 'billing_required', stage: 'charge', reason: event.reason };
        return result({ ...state, status: 'failed', step: 'failed', failure }, ['domain_purchase.failed']);
      }
      return unchanged(state);
    case 'registering':
      if (event.type === 'registered') {
        const registered = { ...state, registrarDomainId: event.registrarDomainId, expiresAt: event.expiresAt };
        if (state.autoConnect) return result({ ...registered, step: 'connecting' });
        return completed(registered);
      }
      if (event.type === 'registration_refused') return refund(state, 'register', event.reason);
      return unchanged(state);
    case 'connecting':
      if (event.type === 'domain_created')
        return result({ ...state, step: 'routing', connectedDomainId: event.domainId });
      if (event.type === 'connect_failed') {
        if (state.connectCall) return connectEnded({ ...state, connectFailure: connectFailure(event) });
        return refund(state, 'autoConnect', event.reason);
      }
      return unchanged(state);
    case 'routing':
      if (event.type === 'routing_set') return state.connectCall ? connectEnded(state) : completed(state);
      if (event.type === 'connect_failed') {
        if (state.connectCall)
          return result({ ...state, step: 'disconnecting', connectFailure: connectFailure(event) });
        const failure: SagaFailure = { code: 'registration_failed', stage: 'autoConnect', reason: event.reason };
        return result({ ...state, step: 'disconnecting', failure });
      }
      return unchanged(state);
    case 'disconnecting':
      if (event.type !== 'domain_removed') return unchanged(state);
      if (state.connectCall) return connectEnded({ ...state, connectedDomainId: undefined });
      return result({ ...state, step: 'refunding', connectedDomainId: undefined });
    case 'refunding':
      if (event.type === 'refunded')
        return result({ ...state, status: 'refunded', step: 'refunded', refundId: event.refundId }, [
          'domain_purchase.failed',
        ]);
      return unchanged(state);
    case 'completed':
    case 'failed':
    case 'refunded':
      return unchanged(state);
  }
}

/**
 * A connect call on a completed purchase (SPEC 4.3 rule 3): the autoConnect steps run again, from
 * the Domain's creation. The purchase stays `completed` (it is registered and paid) throughout.
 */
export function beginConnect(state: SagaState, requestKey?: string): SagaState {
  return {
    ...state,
    step: 'connecting',
    connectCall: true,
    connectAttempts: (state.connectAttempts ?? 0) + 1,
    connectRequestKey: requestKey,
    connectFailure: undefined,
    connectedDomainId: undefined,
  };
}

/** The end of a connect call, connected or rolled back: completed as before, no purchase event. */
function connectEnded(state: SagaState): SagaResult {
  const ended = { ...state, step: 'completed' as const, connectCall: undefined };
  return result(ended.connectFailure ? { ...ended, connectRequestKey: undefined } : ended);
}

function connectFailure(event: Extract<SagaEvent, { type: 'connect_failed' }>): ConnectFailure {
  return { code: event.code ?? 'conflict', reason: event.reason, details: event.details };
}

function completed(state: SagaState): SagaResult {
  return result({ ...state, status: 'completed', step: 'completed' }, ['domain_purchase.completed']);
}

function refund(
  state: SagaState,
  stage: SagaFailure['stage'],
  reason: string,
  code: SagaFailure['code'] = 'registration_failed',
): SagaResult {
  return result({ ...state, step: 'refunding', failure: { code, stage, reason } });
}

/**
 * A step that can never succeed ends the saga through the compensation of its step, never a retry:
 * nothing charged fails, a charge is refunded, a connect rolls back as a refused connect does.
 * Compensations themselves (removing the Domain, refunding) have none: they wait for a retry, as
 * the money must go back.
 */
function failedForGood(state: SagaState, effect: SagaEffect, reason: string): SagaResult {
  if (effectOf(state) !== effect) return unchanged(state);
  switch (state.step) {
    case 'charging':
      if (state.chargeId) return refund(state, 'charge', reason, 'bad_request');
      return result(
        { ...state, status: 'failed', step: 'failed', failure: { code: 'bad_request', stage: 'charge', reason } },
        ['domain_purchase.failed'],
      );
    case 'registering':
      return refund(state, 'register', reason, 'bad_request');
    case 'connecting':
    case 'routing':
      return transition(state, { type: 'connect_failed', reason, code: 'bad_request' });
    case 'disconnecting':
    case 'refunding':
    case 'completed':
    case 'failed':
    case 'refunded':
      return result(state, [], true);
  }
}

/**
 * The outcome of a step (`attempted`) could not be recorded, and never will be: the saga ends through
 * its compensation from the last recorded state, keeping the charge the step learned of so that the
 * money goes back.
 */
export function recordRefused(
  recorded: SagaState,
  attempted: SagaState,
  effect: SagaEffect,
  reason: string,
): SagaResult {
  const chargeId = recorded.chargeId ?? attempted.chargeId;
  return transition({ ...recorded, chargeId }, { type: 'effect_failed', effect, reason });
}

/** A provider outage: retry the step later; the registrar only so often before refunding. */
function unavailable(state: SagaState, effect: SagaEffect, reason: string): SagaResult {
  if (effectOf(state) !== effect) return unchanged(state);
  if (effect !== 'register') return result(state, [], true);
  const attempts = state.registerAttempts + 1;
  if (attempts >= MAX_REGISTER_ATTEMPTS) {
    return refund({ ...state, registerAttempts: attempts }, 'register', `The registrar is unavailable: ${reason}`);
  }
  return result({ ...state, registerAttempts: attempts }, [], true);
}
