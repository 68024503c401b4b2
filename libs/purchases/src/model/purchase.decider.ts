import type { CommandOf, Decision, ErrorCode, OutboxEvent, ReplyOf } from '@app/kernel';
import { DomainError, ERROR_CODES, notFound } from '@app/kernel';
import {
  Need,
  PurchaseAnswers,
  PurchaseEffect,
  PurchaseEnv,
  PurchaseOutcome,
  SagaStart,
} from './purchase-decisions.types';
import { PurchaseEventType } from './purchase-saga.types';
import { beginConnect, initialSaga, isTerminal } from './purchase.saga';
import { PurchaseCommand, PurchaseProtocol } from './purchase.protocol';
import { PurchaseRecord } from './purchase.record';
import { toPurchaseView } from './purchase.view';

/**
 * The purchase actor's decisions, pure: for each command, the query to answer first, the saga to
 * start, or the next record with its reply and the effects to run. The saga's steps themselves are
 * `transition` in purchase.saga.ts; the answers read only the record, so any node gives the same.
 */
type Command<K extends keyof PurchaseProtocol> = CommandOf<PurchaseProtocol, K>;
type Result<K extends keyof PurchaseProtocol> = Decision<PurchaseRecord, ReplyOf<PurchaseProtocol, K>>;

/** A connect failure's code as the API's: an unknown one (never expected) is a conflict. */
const errorCodeOf = (code: string): ErrorCode =>
  (ERROR_CODES as readonly string[]).includes(code) ? (code as ErrorCode) : 'conflict';

const viewOf = (record: PurchaseRecord, env: PurchaseEnv) => toPurchaseView(record, env.registrarNameservers);

/** The record a command addresses: it exists and belongs to the caller's workspace. */
export function liveRecord(state: PurchaseRecord | undefined, command: PurchaseCommand): PurchaseRecord {
  if (!state || ('workspaceId' in command && state.workspaceId !== command.workspaceId)) throw notFound('Purchase');
  return state;
}

/** A new purchase, quoted: written before anything is charged. */
export function decideCreate(command: Command<'create'>, env: PurchaseEnv, answers: PurchaseAnswers): Need | SagaStart {
  const { order, workspaceId } = command;
  const price = answers.quote;
  if (!price) return { need: { type: 'quote', order } };
  const now = env.now.toISOString();
  const start: PurchaseRecord = {
    id: env.id,
    workspaceId,
    hostname: order.hostname,
    years: order.years,
    wholesaleCents: price.wholesaleCents,
    feeCents: price.feeCents,
    totalCents: price.totalCents,
    currency: 'USD',
    registrar: env.registrar,
    registrant: order.registrant,
    whoisPrivacyEnabled: order.whoisPrivacy,
    autoRenew: order.autoRenew,
    customerReference: order.customerReference,
    autoConnect: order.autoConnect,
    saga: initialSaga(order.autoConnect !== undefined),
    renewals: [],
    nameservers: [],
    createdAt: now,
    updatedAt: now,
  };
  return { start };
}

/** The answer to a create (also to its retries): 201, 402, 502, or 503 while a provider is down. */
export function createAnswer(record: PurchaseRecord, env: PurchaseEnv): Result<'create'> {
  const { saga } = record;
  const details = { purchaseId: record.id, reason: saga.failure?.reason, stage: saga.failure?.stage };
  if (saga.status === 'completed') return { reply: { purchase: viewOf(record, env) } };
  if (saga.failure?.code === 'bad_request' && (saga.status === 'failed' || saga.status === 'refunded')) {
    const money = saga.status === 'refunded' ? 'the charge was refunded' : 'nothing was charged';
    throw new DomainError('bad_request', `The purchase failed: ${saga.failure.reason}; ${money}`, details);
  }
  if (saga.status === 'failed')
    throw new DomainError('billing_required', `The card was not charged: ${saga.failure?.reason}`, details);
  if (saga.status === 'refunded') {
    const what = saga.failure?.stage === 'autoConnect' ? 'Connecting the domain' : 'The registrar';
    throw new DomainError(
      'registration_failed',
      `${what} failed (${saga.failure?.reason}); the charge was refunded`,
      details,
    );
  }
  throw new DomainError(
    'service_unavailable',
    `The purchase is pending (${saga.step}): ${saga.outage ?? 'a provider is unavailable'}; it is retried automatically`,
    { purchaseId: record.id, step: saga.step },
  );
}

/** Renewals, nameservers and connect calls need a purchase that completed. */
export function completedRecord(record: PurchaseRecord): PurchaseRecord {
  if (!isTerminal(record.saga) || record.saga.status !== 'completed')
    throw new DomainError('conflict', `The purchase is ${record.saga.step}, not completed`, {
      purchaseId: record.id,
      status: record.saga.status,
    });
  return record;
}

export function decideAutoRenew(
  record: PurchaseRecord,
  command: Command<'set_auto_renew'>,
  env: PurchaseEnv,
): Result<'set_auto_renew'> {
  const state = { ...record, autoRenew: command.autoRenew, retryAt: undefined, updatedAt: env.now.toISOString() };
  return { state, reply: { purchase: viewOf(state, env) } };
}

/**
 * A connect call (SPEC 4.3 rule 3): the autoConnect steps of the saga on a completed purchase. The
 * mailbox runs one command at a time, so of two simultaneous calls the second finds it connected.
 */
export function decideConnect(
  record: PurchaseRecord,
  command: Command<'connect'>,
  env: PurchaseEnv,
  answers: PurchaseAnswers,
): Need | SagaStart | Result<'connect'> {
  if (record.saga.connectCall) return connectAnswer(record, env);
  const { saga } = completedRecord(record);
  if (command.requestKey && saga.connectRequestKey === command.requestKey) return connectAnswer(record, env);
  // A Domain the customer deleted since no longer connects the purchase.
  if (saga.connectedDomainId) {
    if (answers.domainExists === undefined)
      return { need: { type: 'domain_exists', domainId: saga.connectedDomainId } };
    if (answers.domainExists)
      throw new DomainError('conflict', `${record.hostname} is already connected as ${saga.connectedDomainId}`, {
        purchaseId: record.id,
        domainId: saga.connectedDomainId,
        hostname: record.hostname,
      });
  }
  // SPEC 4.3 rule 6: the registrar's records would not apply (as the DNS endpoints answer).
  if (record.nameservers.length)
    throw new DomainError(
      'conflict',
      'The domain uses custom nameservers, so the registrar DNS records would not apply; set an empty nameserver list first',
      { purchaseId: record.id, nameservers: record.nameservers },
    );
  return { start: { ...record, autoConnect: command.settings, saga: beginConnect(saga, command.requestKey) } };
}

/** 200 connected; the rolled-back failure's error; 503 while a provider outage holds a step. */
export function connectAnswer(record: PurchaseRecord, env: PurchaseEnv): Result<'connect'> {
  const { saga } = record;
  if (saga.step === 'completed' && saga.connectFailure) {
    const { code, reason, details } = saga.connectFailure;
    throw new DomainError(errorCodeOf(code), `Connecting ${record.hostname} failed and was undone: ${reason}`, {
      ...details,
      purchaseId: record.id,
    });
  }
  if (saga.step === 'completed') return { reply: { purchase: viewOf(record, env) } };
  throw new DomainError(
    'service_unavailable',
    `Connecting ${record.hostname} is pending (${saga.step}): ${saga.outage ?? 'a provider is unavailable'}; it is retried automatically`,
    { purchaseId: record.id, step: saga.step },
  );
}

/** New nameservers: set at the registrar first (a refusal changes nothing), then stored. */
export function decideNameservers(
  record: PurchaseRecord,
  command: Command<'set_nameservers'>,
  env: PurchaseEnv,
): PurchaseOutcome<ReplyOf<PurchaseProtocol, 'set_nameservers'>> {
  const { nameservers } = command;
  const { hostname, workspaceId } = record;
  const effects: PurchaseEffect[] = [{ type: 'set_nameservers', hostname, nameservers }];
  // The connected Domain asks its owner for records again once custom nameservers take the DNS away
  // (and for nothing once it is back on ours).
  const domainId = completedRecord(record).saga.connectedDomainId;
  const registrarDns = nameservers.length ? null : { purchaseId: record.id };
  if (domainId) effects.push({ type: 'registrar_dns', domainId, workspaceId, hostname, registrarDns });
  const state = { ...record, nameservers, updatedAt: env.now.toISOString() };
  // The answer and every later read name the same list: the custom ones, else the registrar's own.
  const purchase = viewOf(state, env);
  return { decision: { state, reply: { purchase, nameservers: purchase.nameservers } }, effects };
}

/** The outbox events of a saga step, written with it. */
export function sagaEvents(types: PurchaseEventType[], record: PurchaseRecord, env: PurchaseEnv): OutboxEvent[] {
  return types.map((type) => ({ type, workspaceId: record.workspaceId, data: { purchase: viewOf(record, env) } }));
}
