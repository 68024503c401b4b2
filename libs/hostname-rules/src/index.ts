/**
 * Pure rules about hostnames and what their DNS says, shared by the API, the monitor, the edge, the
 * tools and purchases: hostname normalisation, origin URLs and addresses (SSRF), CAA, DNS problems and
 * what a probe observes, preflight warnings, ownership and challenge-delegation records, the registrant
 * a registration names. No I/O, no Nest. (The connected domain's state machine lives in libs/domains.)
 */
export { challengeDelegation, delegationState, isWildcard, probeNameOf, wildcardBase } from './challenge-delegation';
export type { ChallengeDelegation } from './challenge-delegation';
export { HostnameError, normalizeHostname, normalizeLookupHostname, normalizePurchaseHostname } from './hostname';
export type { NormalizedHostname } from './hostname';
export { checkResolvedAddresses, classifyAddress, OriginUrlError, parseOriginUrl } from './ssrf';
export type { ParsedOrigin } from './ssrf';
export { CA_DOMAINS, caaWarning, evaluateCaa, formatCaaRecord } from './caa';
export type { CaaClimbStep } from './caa';
export { dnsProblemWarning, PREFLIGHT_WARNING_CODES, preflightWarningSchema } from './preflight-warning';
export type { PreflightWarning } from './preflight-warning';
export { classifyDnsAnswers, dnsProblemMessage } from './dns-problem';
export type { DnsAnswers, DnsObservation, DnsProblem, EdgeAddresses } from './dns-problem';
export type { Registrant } from './registrant';
export type { CertificateObservation, ServedCertificate } from './served-certificate';
export { ownershipChallenge, ownershipChallengeSchema, ownershipKey, ownershipProven } from './ownership-challenge';
export type { OwnershipChallenge } from './ownership-challenge';
export { caaAllowsIssuer, caaIssuersWarning, caaParameters, caaRecordsAllowing, caaTagFor } from './caa-issuers';
