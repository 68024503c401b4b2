/**
 * The connected domain's state machine: pure, no clock (pass `now`), no I/O.
 *
 * Rules (SPEC 3.1 and 3.3, with the open points decided here):
 * - pending stays pending while DNS is missing or wrong. It fails (`dns_never_correct`) on a wrong
 *   probe 7 days or more after createdAt if DNS has never been correct. Once DNS has been correct,
 *   pending fails like verified does: after 3 wrong probes in a row (`dns_drift`).
 * - pending + correct DNS + valid certificate -> verified (active_ssl). Correct DNS without a
 *   certificate -> pending_ssl; with a failed one -> ssl_failed; with an expired one -> pending_ssl
 *   (a new one is on its way). certificate_issued while the last probe saw correct DNS -> verified.
 * - verified fails (`dns_drift`) after DNS pointed elsewhere (incorrect or not resolving) for 3
 *   probes in a row; a correct probe resets the count. Probes 1 and 2 only move monitorStatus.
 * - failed for DNS reasons returns to pending on a correct probe, or straight to verified when the
 *   certificate is valid too. A failure for a blocked origin is not lifted by DNS: only a new
 *   origin lifts it (`origin_allowed`, sent when a PATCH sets an origin that passes the SSRF rules).
 * - origin_blocked (SSRF) fails pending and verified at once (monitorStatus target_not_loading).
 * - certificate_expired (or a probe seeing an expired certificate) moves verified to expired with
 *   ssl_expired; a pending domain only shows ssl_expired. An expired-by-certificate domain returns
 *   to verified once a valid certificate is issued or seen while DNS is correct.
 * - billing_ended expires every status; it is never lifted here (billing will bring its own input).
 * - certificate_failed sets ssl_failed on pending and verified and never changes status: issuance
 *   is retried and the customer can fix CAA; a verified domain still serves its current certificate.
 * - deleted is terminal: it emits domain.deleted once; every later input is ignored.
 * - hostname_claimed (another workspace proved control of the hostname) fails the domain with
 *   `moved_to_another_owner`; that is final too: only a delete changes it afterwards.
 * - A wrong probe may name the DNS mistake (`problem`): its message replaces the generic one of
 *   dns_incorrect / dns_not_resolving until the next probe (a correct probe clears it).
 * - Pre-validation: a pending domain whose DNS never pointed at the edge but whose certificate was
 *   issued (DNS-01 through its `_acme-challenge` delegation) is `ready_to_switch`, on the issue and on
 *   every wrong probe while the certificate is valid; it never fails for never-correct DNS then (a
 *   migration may take weeks). Its first correct probe verifies it: HTTPS works from the first request.
 * Events: every status change emits exactly one event, the one of the new status (verified ->
 * domain.verified, failed -> domain.failed, expired -> domain.expired; back to pending, which has
 * no event type in SPEC 6, -> domain.monitor_updated). Without a status change, a monitorStatus
 * change or a renewal (certificate_issued while verified) emits one domain.monitor_updated, except
 * the change to ready_to_switch: domain.ready_to_switch, the one a SaaS waits for to tell its customer.
 */
import { nextState } from './domain.rules';
import {
  DomainEvent,
  DomainEventType,
  DomainInput,
  DomainState,
  DomainStatus,
  MONITOR_MESSAGES,
  Transition,
} from './domain.types';
import { monitorMessageOf } from './monitor-message';

export function initialDomainState(now: Date): DomainState {
  return {
    status: 'pending',
    monitorStatus: 'unknown',
    monitorMessage: MONITOR_MESSAGES.unknown,
    deleted: false,
    createdAt: now.toISOString(),
    consecutiveWrongDnsProbes: 0,
  };
}

export const statusEventType = (status: DomainStatus): DomainEventType =>
  status === 'pending' ? 'domain.monitor_updated' : `domain.${status}`;

function event(
  type: DomainEventType,
  before: DomainState,
  after: DomainState,
  at: string,
  renewed: boolean,
): DomainEvent {
  const { status, monitorStatus, monitorMessage, statusReason } = after;
  return {
    type,
    at,
    status,
    previousStatus: before.status,
    monitorStatus,
    monitorMessage,
    ...(statusReason && (status !== before.status || statusReason !== before.statusReason)
      ? { reason: statusReason }
      : {}),
    ...(renewed ? { certificateRenewed: true } : {}),
  };
}

export function transition(state: DomainState, input: DomainInput, now: Date): Transition {
  if (state.deleted) return { state, events: [] };
  const at = now.toISOString();
  const computed = nextState(state, input, now);
  const after: DomainState = { ...computed, monitorMessage: monitorMessageOf(computed) };
  const renewed = input.type === 'certificate_issued' && state.status === 'verified';
  let type: DomainEventType | undefined;
  if (input.type === 'deleted') type = 'domain.deleted';
  else if (after.status !== state.status) type = statusEventType(after.status);
  // A failed domain whose hostname moves still tells its webhooks: the reason is new and final.
  else if (after.statusReason === 'moved_to_another_owner' && state.statusReason !== after.statusReason)
    type = 'domain.failed';
  else if (after.monitorStatus === 'ready_to_switch' && state.monitorStatus !== 'ready_to_switch')
    type = 'domain.ready_to_switch';
  else if (after.monitorStatus !== state.monitorStatus || renewed) type = 'domain.monitor_updated';
  return { state: after, events: type ? [event(type, state, after, at, renewed)] : [] };
}
