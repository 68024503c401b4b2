import type { PreflightWarning } from './preflight-warning';

/**
 * CAA evaluation after RFC 8659, without DNS: the caller climbs from the hostname towards the root
 * (following RFC 8659 section 3) and hands over what it found at each name, closest first.
 * The relevant record set is the first non-empty one. Only non-wildcard issuance is judged
 * (`issue`; `issuewild` concerns wildcard certificates, which this service does not request).
 * Parameters after the issuer (RFC 8657 `accounturi`, `validationmethods`) are not judged: this
 * module cannot know the ACME account, so an issuer match counts as authorization.
 */
export interface CaaRecord {
  flags: number;
  tag: string;
  value: string;
}

export interface CaaClimbStep {
  name: string;
  records: readonly CaaRecord[];
}

export interface CaaEvaluation {
  /** The name whose CAA set is relevant; undefined when no name in the climb has CAA records. */
  relevantName?: string;
  authorizes: { letsencrypt: boolean; google: boolean };
  /** The relevant set in presentation format, e.g. `0 issue "letsencrypt.org"`. */
  records: string[];
  /** A critical property with a tag no CA understands, which forbids issuance by everyone. */
  criticalUnknownTag?: string;
}

export const CA_DOMAINS = { letsencrypt: 'letsencrypt.org', google: 'pki.goog' } as const;

const ISSUER_CRITICAL = 128;
/** Tags a CA processes (RFC 8659, RFC 9495, CA/B Forum BR 3.2.2.8); any other tag marked critical forbids issuance. */
const KNOWN_TAGS = new Set(['issue', 'issuewild', 'iodef', 'issuemail', 'issuevmc', 'contactemail', 'contactphone']);
const DOMAIN = /^[a-z0-9](?:[a-z0-9-]*[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]*[a-z0-9])?)*$/;

/** The issuer domain of an `issue` value (before `;`), lowercased; undefined for `;` or a malformed issuer. */
export function caaIssuer(value: string): string | undefined {
  const issuer = value.split(';', 1)[0].trim().toLowerCase();
  return DOMAIN.test(issuer) ? issuer : undefined;
}

export const formatCaaRecord = (record: CaaRecord) => `${record.flags} ${record.tag} ${JSON.stringify(record.value)}`;

export function evaluateCaa(climb: readonly CaaClimbStep[]): CaaEvaluation {
  const relevant = climb.find((step) => step.records.length > 0);
  if (!relevant) return { authorizes: { letsencrypt: true, google: true }, records: [] };
  const records = relevant.records.map(formatCaaRecord);
  const critical = relevant.records.find(
    (record) => (record.flags & ISSUER_CRITICAL) !== 0 && !KNOWN_TAGS.has(record.tag.toLowerCase()),
  );
  if (critical) {
    return {
      relevantName: relevant.name,
      authorizes: { letsencrypt: false, google: false },
      records,
      criticalUnknownTag: critical.tag,
    };
  }
  const issue = relevant.records.filter((record) => record.tag.toLowerCase() === 'issue');
  const issuers = new Set(issue.map((record) => caaIssuer(record.value)));
  // No `issue` property at all leaves non-wildcard issuance unrestricted (RFC 8659 section 4.2).
  const allows = (ca: string) => issue.length === 0 || issuers.has(ca);
  return {
    relevantName: relevant.name,
    authorizes: { letsencrypt: allows(CA_DOMAINS.letsencrypt), google: allows(CA_DOMAINS.google) },
    records,
  };
}

/** The non-blocking warning for domain create (SPEC 2.2 and 7), or undefined when a certificate can be issued. */
export function caaWarning(evaluation: CaaEvaluation): PreflightWarning | undefined {
  const { authorizes, relevantName, records } = evaluation;
  if (authorizes.letsencrypt || authorizes.google) return undefined;
  const where = relevantName ?? 'this hostname';
  const cause = evaluation.criticalUnknownTag
    ? `The CAA records on ${where} contain a critical "${evaluation.criticalUnknownTag}" property that certificate authorities do not understand, so they authorize neither Let's Encrypt nor Google Trust Services.`
    : `The CAA records on ${where} authorize neither Let's Encrypt nor Google Trust Services.`;
  return {
    code: 'caa_blocks_letsencrypt',
    message:
      `${cause} SSL certificates cannot be issued for this hostname until you add a CAA record ` +
      `${where} CAA 0 issue "letsencrypt.org" (or 0 issue "pki.goog") at your DNS provider, or remove the CAA records.`,
    caaRecords: records,
  };
}
