import { CaaClimbStep, caaIssuer, formatCaaRecord } from './caa';
import type { PreflightWarning } from './preflight-warning';

/**
 * CAA for one certificate authority of ours (RFC 8659), with the account binding of RFC 8657:
 * an `issue` property names the CA by one of its CAA identities and, when it carries them,
 * `accounturi` must be our account at that CA and `validationmethods` must list the challenge we
 * would use. Pure: the climb comes from libs/dns.
 */
export interface CaaIssuer {
  name: string;
  caaIdentities: readonly string[];
  /** Our account URL at this CA, when registered (RFC 8657 `accounturi`). */
  accountUri?: string;
}

export interface CaaVerdict {
  allowed: boolean;
  /** The name whose CAA set decided; undefined when no name in the climb has CAA records. */
  relevantName?: string;
  records: string[];
}

const ISSUER_CRITICAL = 128;
const KNOWN_TAGS = new Set(['issue', 'issuewild', 'iodef', 'issuemail', 'issuevmc', 'contactemail', 'contactphone']);

/** The `key=value` parameters after the issuer domain, keys lowercased. */
export function caaParameters(value: string): Map<string, string> {
  const parameters = new Map<string, string>();
  for (const part of value.split(';').slice(1)) {
    const at = part.indexOf('=');
    if (at > 0) parameters.set(part.slice(0, at).trim().toLowerCase(), part.slice(at + 1).trim());
  }
  return parameters;
}

/**
 * Whether the CAA set relevant to the name (the climb's first non-empty step) lets `issuer` issue,
 * validated by `method`. For a wildcard certificate (`wildcard`; the climb starts at the name under
 * `*`) `issuewild` properties decide when the set has any, else `issue` (RFC 8659 section 4.3).
 */
export function caaAllowsIssuer(
  climb: readonly CaaClimbStep[],
  issuer: CaaIssuer,
  method: 'http-01' | 'dns-01' = 'http-01',
  wildcard = false,
): CaaVerdict {
  const relevant = climb.find((step) => step.records.length > 0);
  if (!relevant) return { allowed: true, records: [] };
  const records = relevant.records.map(formatCaaRecord);
  const verdict = (allowed: boolean): CaaVerdict => ({ allowed, relevantName: relevant.name, records });
  if (relevant.records.some((r) => (r.flags & ISSUER_CRITICAL) !== 0 && !KNOWN_TAGS.has(r.tag.toLowerCase())))
    return verdict(false);
  const tag = caaTagFor(climb, wildcard);
  const issue = relevant.records.filter((record) => record.tag.toLowerCase() === tag);
  if (!issue.length) return verdict(true);
  const identities = new Set(issuer.caaIdentities.map((identity) => identity.toLowerCase()));
  return verdict(
    issue.some((record) => {
      const domain = caaIssuer(record.value);
      if (!domain || !identities.has(domain)) return false;
      const parameters = caaParameters(record.value);
      const account = parameters.get('accounturi');
      if (account !== undefined && account !== issuer.accountUri) return false;
      const methods = parameters.get('validationmethods');
      return methods === undefined || methods.split(',').some((m) => m.trim().toLowerCase() === method);
    }),
  );
}

/** The property tag that decides: `issuewild` for a wildcard where the relevant set has one, else `issue`. */
export function caaTagFor(climb: readonly CaaClimbStep[], wildcard: boolean): 'issue' | 'issuewild' {
  const relevant = climb.find((step) => step.records.length > 0);
  return wildcard && relevant?.records.some((r) => r.tag.toLowerCase() === 'issuewild') ? 'issuewild' : 'issue';
}

/** The records a customer can add to allow `issuer`: plain, and bound to our account when we have one. */
export function caaRecordsAllowing(name: string, issuer: CaaIssuer, tag: 'issue' | 'issuewild' = 'issue'): string[] {
  const [identity] = issuer.caaIdentities;
  if (!identity) return [];
  const plain = `${name}. CAA 0 ${tag} "${identity}"`;
  return issuer.accountUri ? [plain, `${name}. CAA 0 ${tag} "${identity}; accounturi=${issuer.accountUri}"`] : [plain];
}

/** A CA's public name for a CAA identity, for messages. */
const CA_NAMES: Record<string, string> = {
  'letsencrypt.org': "Let's Encrypt",
  'pki.goog': 'Google Trust Services',
  'sectigo.com': 'Sectigo (ZeroSSL)',
  'buypass.com': 'Buypass',
  'ssl.com': 'SSL.com',
  'digicert.com': 'DigiCert',
};

const caDisplayName = (issuer: CaaIssuer): string => CA_NAMES[issuer.caaIdentities[0] ?? ''] ?? issuer.name;

/**
 * The create-time warning (SPEC 2.2 and 7) when CAA allows none of the CAs we order from, with the
 * exact record that would allow each; undefined when one may issue.
 */
export function caaIssuersWarning(
  climb: readonly CaaClimbStep[],
  issuers: readonly CaaIssuer[],
  wildcard = false,
): PreflightWarning | undefined {
  // A wildcard is validated by DNS-01 only, so a set that limits `validationmethods` is judged for it.
  const method = wildcard ? 'dns-01' : 'http-01';
  const verdicts = issuers.map((issuer) => caaAllowsIssuer(climb, issuer, method, wildcard));
  if (verdicts.some((verdict) => verdict.allowed)) return undefined;
  const { relevantName, records } = verdicts[0] ?? { records: [] };
  const where = relevantName ?? 'this hostname';
  const names = issuers.map(caDisplayName).join(' or ');
  const allowing = issuers.flatMap((issuer) => caaRecordsAllowing(where, issuer, caaTagFor(climb, wildcard)));
  const fix = allowing.length
    ? `add one of these records at your DNS provider, or remove the CAA records: ${allowing.join(' or ')}`
    : 'remove the CAA records at your DNS provider';
  return {
    code: 'caa_blocks_letsencrypt',
    message:
      `The CAA records on ${where} authorize none of the certificate authorities this service uses (${names}). ` +
      `SSL certificates cannot be issued for this hostname until you ${fix}.`,
    caaRecords: records,
  };
}
