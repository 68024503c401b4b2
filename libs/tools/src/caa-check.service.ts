import { DnsLookupError, DnsResolver, climbCaa } from '@app/dns';
import { CA_DOMAINS, caaWarning, evaluateCaa, formatCaaRecord, normalizeLookupHostname } from '@app/hostname-rules';
import { DomainError } from '@app/kernel';
import { Injectable } from '@nestjs/common';

const AUTHORITIES = [
  { id: 'letsencrypt', name: "Let's Encrypt", issuerDomain: CA_DOMAINS.letsencrypt },
  { id: 'google', name: 'Google Trust Services', issuerDomain: CA_DOMAINS.google },
] as const;

export interface CaaCheckResult {
  hostname: string;
  /** At least one of the service's certificate authorities may issue for the hostname. */
  allowed: boolean;
  authorities: Array<{ id: string; name: string; issuerDomain: string; allowed: boolean }>;
  /** The name whose CAA set decides (RFC 8659 climb); null when no name up the tree has CAA records. */
  relevantName: string | null;
  records: string[];
  /** Every name asked, closest first, with what it holds. */
  checked: Array<{ name: string; records: string[] }>;
  criticalUnknownTag?: string;
  message: string;
}

/** The CAA check tool: the same climb and rules as the issuance preflight of POST /v1/domains. */
@Injectable()
export class CaaCheckTool {
  constructor(private readonly resolver: DnsResolver) {}

  async check(input: string): Promise<CaaCheckResult> {
    const hostname = normalizeLookupHostname(input);
    let climb: Awaited<ReturnType<typeof climbCaa>>;
    try {
      climb = await climbCaa(this.resolver, hostname);
    } catch (error) {
      if (!(error instanceof DnsLookupError)) throw error;
      throw new DomainError(
        'service_unavailable',
        `Could not look up CAA records of ${error.hostname} (${error.code}); try again`,
        { reason: 'dns_lookup_failed', name: error.hostname, code: error.code },
      );
    }
    const evaluation = evaluateCaa(climb);
    const authorities = AUTHORITIES.map((a) => ({ ...a, allowed: evaluation.authorizes[a.id] }));
    const allowed = authorities.some((a) => a.allowed);
    const names = authorities.filter((a) => a.allowed).map((a) => a.name);
    const message = !allowed
      ? (caaWarning(evaluation)?.message ?? `No certificate authority of this service may issue for ${hostname}.`)
      : evaluation.relevantName
        ? `The CAA records on ${evaluation.relevantName} allow ${names.join(' and ')} to issue for ${hostname}.`
        : `No CAA records from ${hostname} up to its top-level domain: every certificate authority may issue.`;
    return {
      hostname,
      allowed,
      authorities,
      relevantName: evaluation.relevantName ?? null,
      records: evaluation.records,
      checked: climb.map((step) => ({ name: step.name, records: step.records.map(formatCaaRecord) })),
      ...(evaluation.criticalUnknownTag ? { criticalUnknownTag: evaluation.criticalUnknownTag } : {}),
      message,
    };
  }
}
