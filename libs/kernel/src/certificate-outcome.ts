import { defineProtocol } from './actor-protocol';
import { dateTime, Infer, obj, oneOfValues, str } from './schema';

/** The actor kind of a connected domain (libs/domains' actor). */
export const DOMAIN_KIND = 'domain';

export const CERTIFICATE_ATTEMPT_OUTCOMES = ['issued', 'failed'] as const;

/** One try at one CA: what the customer and support see on the domain. */
export const certificateAttemptSchema = obj(
  {
    at: dateTime(),
    issuer: str('The CA tried (ACME_ISSUERS name), or `caa` / `budget` when no CA was asked'),
    outcome: oneOfValues(...CERTIFICATE_ATTEMPT_OUTCOMES),
    code: str(),
    message: str(),
  },
  ['code', 'message'],
);
export type CertificateAttempt = Infer<typeof certificateAttemptSchema>;

interface CertificateFailure {
  /** What went wrong (`ca_unavailable`, `validation_failed`, `caa_forbids`, ...). */
  code?: string;
  /** What to do, in words a customer can act on. `reason`: the same, from nodes before this field. */
  message?: string;
  reason?: string;
  retryAt: string;
  attempts?: CertificateAttempt[];
}

/**
 * The outcome of a certificate order (sent by the node's CertificateManager), with every attempt it
 * made (one per CA tried). `failed`: no CA will issue until the customer acts (ssl_failed); a check
 * orders again at once. `deferred`: the order waits until `retryAt` (a CA outage, a rate limit, a
 * failed validation, the issuance budget); `retryOnCheck` says whether a check may order sooner.
 * `renewal_advised`: the CA moved the renewal time of the current certificate (ARI).
 */
export type CertificateOutcome =
  | {
      type: 'certificate';
      result: 'issued';
      expiresAt: string;
      renewAt?: string;
      /** Our name of the CA that issued it. */
      issuer?: string;
      attempts?: CertificateAttempt[];
    }
  | (CertificateFailure & { type: 'certificate'; result: 'failed' })
  | (CertificateFailure & { type: 'certificate'; result: 'deferred'; retryOnCheck?: boolean })
  | { type: 'certificate'; result: 'renewal_advised'; renewAt: string };

/**
 * The one command of the domain actor that libs/certificates sends, declared here because libs/domains
 * imports libs/certificates (the reverse import would be a cycle). libs/domains' protocol takes its
 * `certificate` command from this type, so the two cannot drift apart.
 */
export type DomainCertificateProtocol = { certificate: { command: CertificateOutcome; reply: unknown } };
export const domainCertificateProtocol = defineProtocol<DomainCertificateProtocol>(DOMAIN_KIND);
