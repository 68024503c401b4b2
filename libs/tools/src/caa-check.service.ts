import { DnsLookupError, DnsResolver, climbCaa } from '@app/dns';
import { CA_DOMAINS, caaWarning, evaluateCaa, formatCaaRecord, normalizeLookupHostname } from '@app/hostname-rules';
import { DomainError, arrayOf, bool, described, Infer, nullable, obj, str } from '@app/kernel';
import { Injectable } from '@nestjs/common';

const AUTHORITIES = [
  { id: 'letsencrypt', name: "Let's Encrypt", issuerDomain: CA_DOMAINS.letsencrypt },
  { id: 'google', name: 'Google Trust Services', issuerDomain: CA_DOMAINS.google },
] as const;

export const caaCheckResultSchema = obj(
  {
    hostname: str(),
    allowed: described(bool, "At least one of the service's certificate authorities may issue"),
    authorities: arrayOf(obj({ id: str(), name: str(), issuerDomain: str(), allowed: bool })),
    relevantName: nullable(str('The name whose CAA records apply (RFC 8659 climb); null when no name has any')),
    records: arrayOf(str()),
    checked: described(arrayOf(obj({ name: str(), records: arrayOf(str()) })), 'Every name asked, closest first'),
    criticalUnknownTag: str(),
    message: str(),
  },
  ['criticalUnknownTag'],
);
export type CaaCheckResult = Infer<typeof caaCheckResultSchema>;

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
