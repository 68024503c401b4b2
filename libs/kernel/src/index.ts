/**
 * The shared vocabulary of every lib: error codes (and which database failures are transient), time,
 * bounded caches, hostnames, the question whether an HTTP caller still waits, the edge's settings and invalidation message, and the
 * messages one feature sends another's actor (a certificate order's outcome to its domain). Plain TypeScript: no
 * framework, transport or database here.
 */
export { DomainError, ERROR_CODES, notFound } from './domain-error';
export type { ErrorCode } from './domain-error';
export { CLOCK, SystemClock } from './clock';
export type { Clock, Instant } from './clock';
export { canonicalHostname, wwwTwin } from './hostname';
export { edgeSettingsOf } from './edge-settings';
export type { EdgeSettings } from './edge-settings';
export { DNS_CHALLENGE_CHANGED_SUBJECT } from './dns-challenge-change';
export type { DnsChallengeChange } from './dns-challenge-change';
export { escapeHtml } from './escape-html';
export { CALLER_PRESENCE } from './caller';
export type { CallerPresence } from './caller';
export { EDGE_INVALIDATE_SUBJECT, invalidatedHostname, publishEdgeInvalidation } from './edge-invalidation';
export { PROCESS_STATUS_SUBJECT } from './process-status';
export type { ProcessStatus } from './process-status';
export { BoundedCache } from './bounded-cache';
export { defineProtocol } from './actor-protocol';
export type { ActorProtocol, CommandOf, Decision, OutboxEvent, ProtocolMap, ReplyOf } from './actor-protocol';
export { isTransientDatabaseError } from './transient-database-error';
export { databaseDataError, unstorableValueError } from './database-data-error';
export {
  CERTIFICATE_ATTEMPT_OUTCOMES,
  certificateAttemptSchema,
  DOMAIN_KIND,
  domainCertificateProtocol,
} from './certificate-outcome';
export type { CertificateAttempt, CertificateOutcome } from './certificate-outcome';
export {
  arrayOf,
  bool,
  dateTime,
  described,
  dictionary,
  freeForm,
  int,
  intValues,
  nullable,
  obj,
  oneOf,
  oneOfValues,
  ref,
  str,
  uri,
} from './schema';
export type { Infer, SchemaObject } from './schema';
