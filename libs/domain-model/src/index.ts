/** Pure rules of connected domains: hostnames, SSRF, CAA and the domain state machine. No I/O, no Nest. */
export { challengeDelegation, delegationState, isWildcard, probeNameOf, wildcardBase } from './challenge-delegation';
export type { ChallengeDelegation, DelegationState } from './challenge-delegation';
export { HostnameError, normalizeHostname, normalizeLookupHostname, normalizePurchaseHostname } from './hostname';
export type { NormalizedHostname } from './hostname';
export { checkResolvedAddresses, classifyAddress, OriginUrlError, parseOriginUrl } from './ssrf';
export type { AddressVerdict, ParsedOrigin, ResolvedCheck } from './ssrf';
export { CA_DOMAINS, caaIssuer, caaWarning, evaluateCaa, formatCaaRecord, PREFLIGHT_WARNING_CODES } from './caa';
export type { CaaClimbStep, CaaEvaluation, CaaRecord, PreflightWarning, PreflightWarningCode } from './caa';
export { initialDomainState, statusEventType, transition } from './domain.machine';
export { NEVER_CORRECT_DNS_GRACE_MS, WRONG_DNS_PROBES_TO_FAIL } from './domain.rules';
export { DOMAIN_STATUSES, MONITOR_MESSAGES, MONITOR_STATUSES, STATUS_REASONS } from './domain.types';
export type {
  CertificateObservation,
  DnsObservation,
  DomainEvent,
  DomainInput,
  DomainState,
  DomainStatus,
  MonitorStatus,
} from './domain.types';
export { classifyDnsAnswers, dnsProblemMessage, dnsProblemWarning, isCloudflareProxyAddress } from './dns-problem';
export type { DnsAnswers, DnsProblem, DnsProblemKind, DnsVerdict, EdgeAddresses } from './dns-problem';
export { MOVED_TO_ANOTHER_OWNER_MESSAGE, monitorMessageOf, registrarDnsMessage } from './monitor-message';
export type { Registrant } from './registrant';
export type { ServedCertificate } from './served-certificate';
export { OWNERSHIP_RECORD_LABEL, ownershipChallenge, ownershipKey, ownershipProven } from './ownership-challenge';
export type { OwnershipChallenge } from './ownership-challenge';
export {
  caDisplayName,
  caaAllowsIssuer,
  caaIssuersWarning,
  caaParameters,
  caaRecordsAllowing,
  caaTagFor,
} from './caa-issuers';
export type { CaaIssuer, CaaVerdict } from './caa-issuers';
