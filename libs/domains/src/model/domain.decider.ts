import type { CommandOf, OutboxEvent, ReplyOf } from '@app/kernel';
import { ChallengeDelegation, challengeDelegation, isWildcard } from '@app/hostname-rules';
import { initialDomainState, transition } from './domain.machine';
import { DomainEvent, DomainInput, DomainState } from './domain.types';
import { DomainError, notFound, wwwTwin } from '@app/kernel';
import { certificateState, holdsCertificate, observedCertificate, servedReadJudged } from './domain-certificate';
import { DomainAnswers, DomainEffect, DomainEnv, DomainOutcome, ProbeOutcome } from './domain.effects';
import { DomainCommand, DomainProtocol } from './domain.protocol';
import { CERTIFICATE_ATTEMPTS_KEPT, DomainRecord, TakeoverGuard } from './domain.record';
import { DomainView, toDomainView } from './domain.view';

/**
 * The domain actor's decisions, pure: for each command, the next record, its outbox events, the
 * reply and the effects to run (or first a query to answer). The status machine itself is
 * `transition` in domain.machine.ts; this adds what the record holds around it (settings, certificate
 * retries, the release of a hostname) and the certificate orders a probe calls for.
 */
type Command<K extends keyof DomainProtocol> = CommandOf<DomainProtocol, K>;
type Outcome<K extends keyof DomainProtocol> = DomainOutcome<ReplyOf<DomainProtocol, K>>;
interface Next {
  state: DomainRecord;
  events: OutboxEvent[];
  effects: DomainEffect[];
}

/** Whether anything but the probe time moved: unchanged observations are not written. */
const sameMachine = (a: DomainState, b: DomainState) =>
  JSON.stringify({ ...a, lastProbeAt: undefined }) === JSON.stringify({ ...b, lastProbeAt: undefined });

/** The record a command addresses: it exists, is not deleted, and belongs to the caller's workspace. */
export function liveRecord(state: DomainRecord | undefined, command: DomainCommand): DomainRecord {
  if (!state || state.machine.deleted) throw notFound('Domain');
  if ('workspaceId' in command && state.workspaceId !== command.workspaceId) throw notFound('Domain');
  return state;
}

export function decideCreate(
  state: DomainRecord | undefined,
  command: Command<'create'>,
  env: DomainEnv,
  answers: DomainAnswers,
): Outcome<'create'> {
  if (state) return createdBefore(state, command, env);
  refuseWwwTwinOfWildcard(command.hostname, command.settings.redirectWww);
  const { hostname, workspaceId } = command;
  const hold = answers.hostnameTaken;
  if (hold === undefined) return { need: { type: 'hostname_taken', hostname, workspaceId } };
  if (hold.held === 'connected') throw new DomainError('conflict', `${hostname} is already connected`, { hostname });
  if (hold.held === 'guarded')
    throw new DomainError(
      'conflict',
      `${hostname} was disconnected from another workspace while its DNS still pointed at this service; until ` +
        `${hold.until} it connects elsewhere only with proof of control`,
      { hostname, guardedUntil: hold.until },
    );
  const now = env.now.toISOString();
  const created: DomainRecord = {
    ...command.settings,
    id: env.id,
    workspaceId: command.workspaceId,
    hostname: command.hostname,
    apex: command.apex,
    probePhase: env.probePhase,
    machine: initialDomainState(env.now),
    createdAt: now,
    updatedAt: now,
    ...(command.registrarDns && { registrarDns: command.registrarDns }),
  };
  // The API's lookup is the first probe: one write and one event (domain.created, as it now is)
  // instead of a second write and a monitor_updated 10 s later; DNS already right orders at once.
  const { state: record, effects } = command.observed
    ? firstObservation(created, command.observed, env)
    : unchanged(created);
  const domain = toDomainView(record, env.edge);
  const events = [{ type: 'domain.created', workspaceId: record.workspaceId, data: { domain } }];
  // A retried create finds the domain and is answered by `createdBefore`: no command record needed.
  return { decision: { state: record, events, reply: { domain }, retryAnsweredByState: true }, effects };
}

function firstObservation(
  record: DomainRecord,
  observed: NonNullable<Command<'create'>['observed']>,
  env: DomainEnv,
): Next {
  const certificate = observedCertificate(record, env.now, env.renewDays);
  const input: DomainInput = { type: 'probe_observed', dns: observed.dns, certificate, problem: observed.problem };
  // The machine's transition only: the first order comes from the first probe (10 s later), as before: a
  // wildcard's needs the delegation its 201 asks for, and an order started by the create slowed that create
  // (2.9 s seen with the CA down).
  const { state } = apply(record, input, env);
  return { state: { ...state, updatedAt: record.updatedAt }, events: [], effects: [] };
}

/** `*.example.com` already serves `www.example.com`'s label: a www twin of a wildcard means nothing. */
function refuseWwwTwinOfWildcard(hostname: string, redirectWww: boolean | undefined): void {
  if (redirectWww && isWildcard(hostname))
    throw new DomainError('bad_request', 'redirectWww cannot be set on a wildcard hostname', { field: 'redirectWww' });
}

/**
 * A create for an id that exists: the retry of a create whose answer was lost (the id is derived
 * from its Idempotency-Key) is answered with the domain, unchanged and without a second event.
 */
function createdBefore(state: DomainRecord, command: Command<'create'>, env: DomainEnv): Outcome<'create'> {
  if (state.machine.deleted || state.workspaceId !== command.workspaceId)
    throw new DomainError('conflict', 'A domain with this id already exists');
  if (state.hostname !== command.hostname) {
    throw new DomainError(
      'idempotency_key_reused',
      `This Idempotency-Key created ${state.hostname}; a request for another hostname needs its own key`,
      { hostname: state.hostname },
    );
  }
  return { decision: { reply: { domain: toDomainView(state, env.edge) } }, effects: [] };
}

export function decidePatch(record: DomainRecord, command: Command<'patch'>, env: DomainEnv): Outcome<'patch'> {
  const { changes } = command;
  refuseWwwTwinOfWildcard(record.hostname, changes.redirectWww);
  const updated: DomainRecord = { ...record, ...changes, updatedAt: env.now.toISOString() };
  // The API ran the SSRF preflight on a new origin before sending it: it is allowed.
  const next = changes.originUrl ? apply(updated, { type: 'origin_allowed' }, env) : unchanged(updated);
  return withReply(next, env);
}

/**
 * Deleted; when its DNS still points at the edge (asked now: a dangling record is what someone else
 * could claim), the record keeps a takeover guard and the domain.deleted event says so.
 */
export function decideDelete(record: DomainRecord, env: DomainEnv, answers: DomainAnswers): Outcome<'delete'> {
  const guarding = env.takeoverGuardDays > 0 && !record.releasedAt;
  if (guarding && answers.dns === undefined) return { need: { type: 'dns', hostname: record.hostname } };
  const reason = guarding ? danglingReason(record.machine, answers.dns!) : undefined;
  const takeoverGuard = reason && {
    until: new Date(env.now.getTime() + env.takeoverGuardDays * 86_400_000).toISOString(),
    reason,
  };
  const { state, events } = apply(takeoverGuard ? { ...record, takeoverGuard } : record, { type: 'deleted' }, env);
  return {
    decision: { state, events, reply: { deleted: true, id: record.id, hostname: record.hostname } },
    effects: [],
  };
}

/** Whether DNS points at the edge at the deletion; without an answer, what the last probe saw. */
function danglingReason(
  machine: DomainState,
  dns: NonNullable<DomainAnswers['dns']>,
): TakeoverGuard['reason'] | undefined {
  if (dns === 'correct') return 'dns_points_at_edge';
  const lastSawEdge = machine.firstSeenCorrectDnsAt !== undefined && machine.consecutiveWrongDnsProbes === 0;
  return dns === 'lookup_failed' && lastSawEdge ? 'last_seen_at_edge' : undefined;
}

/** The customer's check: probes now, then decides as the monitor's probe would, ordering past a refusal. */
export function decideCheck(record: DomainRecord, env: DomainEnv, answers: DomainAnswers): Outcome<'check'> {
  const { probe } = answers;
  if (!probe) {
    const { hostname, originUrl } = record;
    const delegation = delegationToCheck(record, env);
    const query = { type: 'probe' as const, hostname, originUrl, readServedCertificate: holdsCertificate(record) };
    return { need: delegation ? { ...query, delegation } : query };
  }
  return withReply(probed(record, probe, env, true), env);
}

/** The monitor's probe; one that moves nothing but the probe time (nor ends a pending served check) is not written. */
export function decideObserve(record: DomainRecord, command: Command<'observe'>, env: DomainEnv): Outcome<'observe'> {
  const next = probed(record, command, env, false);
  const servedRead = record.servedCheckPending && !next.state.servedCheckPending;
  if (!next.events.length && sameMachine(record.machine, next.state.machine) && !servedRead)
    return { decision: { reply: { unchanged: true } }, effects: next.effects };
  return withReply(next, env);
}

export function decideCertificate(
  record: DomainRecord,
  command: Command<'certificate'>,
  env: DomainEnv,
): Outcome<'certificate'> {
  if (command.result === 'renewal_advised') {
    if (command.renewAt === record.machine.certificateRenewAt) return withReply(unchanged(record), env);
    const advised = apply(record, { type: 'certificate_renewal_advised', renewAt: command.renewAt }, env);
    return withReply({ ...advised, state: { ...advised.state, updatedAt: env.now.toISOString() } }, env);
  }
  const attempts = [...(record.certificateAttempts ?? []), ...(command.attempts ?? [])].slice(
    -CERTIFICATE_ATTEMPTS_KEPT,
  );
  const cleared: DomainRecord = {
    ...record,
    certificateRetryAt: undefined,
    certificateNote: undefined,
    certificateErrorCode: undefined,
    certificateRetryOnCheck: undefined,
    certificateAttempts: attempts.length ? attempts : undefined,
  };
  if (command.result === 'issued') {
    const input: DomainInput = { type: 'certificate_issued', expiresAt: command.expiresAt, renewAt: command.renewAt };
    const issued: DomainRecord = {
      ...cleared,
      certificateFailures: undefined,
      certificateIssuer: command.issuer,
      servedCheckPending: true,
    };
    return withReply(apply(issued, input, env), env);
  }
  const message = command.message ?? command.reason ?? 'The certificate order failed';
  const failed: DomainRecord = {
    ...cleared,
    certificateRetryAt: command.retryAt,
    certificateErrorCode: command.code,
    // A queued order's notice tried nothing: only real attempts grow the back-off.
    certificateFailures: (record.certificateFailures ?? 0) + (command.attempts?.length ? 1 : 0),
    updatedAt: env.now.toISOString(),
  };
  if (command.result === 'failed') {
    const input: DomainInput = { type: 'certificate_failed', reason: message };
    return withReply(apply({ ...failed, certificateRetryOnCheck: true }, input, env), env);
  }
  const retryOnCheck = command.retryOnCheck === true ? true : undefined;
  return withReply(unchanged({ ...failed, certificateNote: message, certificateRetryOnCheck: retryOnCheck }), env);
}

/** Whose DNS it is changes what the customer is asked for (nothing, on our registrar's); no event. */
export function decideRegistrarDns(
  record: DomainRecord,
  command: Command<'registrar_dns'>,
  env: DomainEnv,
): Outcome<'registrar_dns'> {
  const { registrarDns: _, ...rest } = record;
  const next: DomainRecord = command.registrarDns ? { ...rest, registrarDns: command.registrarDns } : rest;
  if (JSON.stringify(next.registrarDns) === JSON.stringify(record.registrarDns))
    return { decision: { reply: { domain: toDomainView(record, env.edge) } }, effects: [] };
  return withReply(unchanged({ ...next, updatedAt: env.now.toISOString() }), env);
}

/** Idempotent: a second claimer's release of an already released domain changes nothing. */
export function decideRelease(record: DomainRecord, command: Command<'release'>, env: DomainEnv): Outcome<'release'> {
  if (record.hostname !== command.hostname) throw notFound('Domain');
  if (record.releasedAt) return withReply(unchanged(record), env);
  const released: DomainRecord = { ...record, releasedAt: env.now.toISOString() };
  return withReply(apply(released, { type: 'hostname_claimed' }, env), env);
}

/**
 * Applies a probe (the one a customer's check ran, or the monitor's in its observe command); with DNS
 * right and no usable certificate (or one due for renewal), orders one in the background. An observe
 * command is read as a probe's outcome: the monitor sends what it saw. After a failure the next order waits until `certificateRetryAt`, which the order's
 * outcome set (the CA's Retry-After, a back-off); a customer's check orders sooner when the cause
 * may be theirs to fix (CAA, a failed validation), never past a CA's rate limit or an outage.
 */
function probed(record: DomainRecord, probe: ProbeOutcome, env: DomainEnv, forced: boolean): Next {
  const input: DomainInput = probe.originBlocked
    ? { type: 'origin_blocked' }
    : {
        type: 'probe_observed',
        dns: probe.dns,
        certificate: observedCertificate(record, env.now, env.renewDays, probe.served),
        problem: probe.problem,
      };
  const delegated = !probe.originBlocked && probe.delegated === true;
  // The served certificate was read (an unreachable edge judged nothing): the read a new certificate asked for is done.
  const read = !probe.originBlocked && servedReadJudged(probe.served) && record.servedCheckPending;
  const next = apply(read ? { ...record, servedCheckPending: undefined } : record, input, env);
  const cert = certificateState(record, env.now, env.renewDays);
  const retryAt = record.certificateRetryAt ? Date.parse(record.certificateRetryAt) : 0;
  const waiting = retryAt > env.now.getTime() && !(forced && record.certificateRetryOnCheck);
  // DNS pointing at us, or (pre-validation) the challenge delegated to us while a live domain waits for it.
  const live = next.state.machine.status === 'pending' || next.state.machine.status === 'verified';
  const reachable = input.type === 'probe_observed' && (input.dns === 'correct' || (delegated && live));
  const ordering = reachable && !record.releasedAt;
  if (!ordering || cert === 'valid' || waiting) return next;
  const twin = record.redirectWww ? wwwTwin(record.hostname) : undefined;
  const effect: DomainEffect = {
    type: 'order_certificate',
    id: record.id,
    hostname: record.hostname,
    workspaceId: record.workspaceId,
    failures: record.certificateFailures ?? 0,
    ...(twin ? { twin } : {}),
  };
  return { ...next, effects: [effect] };
}

/**
 * The `_acme-challenge` delegation a check asks about: only where a challenge zone is set up and the
 * domain has no valid certificate yet (pre-validation, or the renewal of a pre-validated one).
 */
export function delegationToCheck(
  record: Pick<DomainRecord, 'hostname' | 'workspaceId' | 'machine'>,
  env: Pick<DomainEnv, 'edge' | 'now' | 'renewDays'>,
): ChallengeDelegation | undefined {
  if (!env.edge.challengeZone || certificateState(record, env.now, env.renewDays) === 'valid') return undefined;
  return challengeDelegation(record.hostname, record.workspaceId, env.edge.challengeZone);
}

/** The machine's transition on the record: status, timestamps and the events with the domain as it is now. */
function apply(record: DomainRecord, input: DomainInput, env: DomainEnv): Next {
  const { now } = env;
  const result = transition(record.machine, input, now);
  const verifiedNow = result.state.status === 'verified' && record.machine.status !== 'verified';
  const state: DomainRecord = {
    ...record,
    machine: result.state,
    updatedAt: result.events.length ? now.toISOString() : record.updatedAt,
    verifiedAt: verifiedNow && !record.verifiedAt ? now.toISOString() : record.verifiedAt,
  };
  return { state, events: result.events.map((event) => outboxEvent(state, event, env)), effects: [] };
}

function outboxEvent(record: DomainRecord, event: DomainEvent, env: DomainEnv): OutboxEvent {
  const { type, previousStatus, reason, certificateRenewed } = event;
  // A deletion that left DNS pointing at us tells the former owner: remove the record.
  const takeoverGuard = type === 'domain.deleted' ? record.takeoverGuard : undefined;
  return {
    type,
    workspaceId: record.workspaceId,
    data: { domain: toDomainView(record, env.edge), previousStatus, reason, certificateRenewed, takeoverGuard },
  };
}

const unchanged = (state: DomainRecord): Next => ({ state, events: [], effects: [] });

function withReply({ state, events, effects }: Next, env: DomainEnv): DomainOutcome<{ domain: DomainView }> {
  return { decision: { state, events, reply: { domain: toDomainView(state, env.edge) } }, effects };
}
