import { CaaClimbStep, PreflightWarning, caaIssuer, formatCaaRecord } from './caa';

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

export function caaAllowsIssuer(
  climb: readonly CaaClimbStep[],
  issuer: CaaIssuer,
  method: 'http-01' | 'dns-01' = 'http-01',
): CaaVerdict {
  const relevant = climb.find((step) => step.records.length > 0);
  if (!relevant) return { allowed: true, records: [] };
  const records = relevant.records.map(formatCaaRecord);
  const verdict = (allowed: boolean): CaaVerdict => ({ allowed, relevantName: relevant.name, records });
  if (relevant.records.some((r) => (r.flags & ISSUER_CRITICAL) !== 0 && !KNOWN_TAGS.has(r.tag.toLowerCase())))
    return verdict(false);
  const issue = relevant.records.filter((record) => record.tag.toLowerCase() === 'issue');
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

/** The records a customer can add to allow `issuer`: plain, and bound to our account when we have one. */
export function caaRecordsAllowing(name: string, issuer: CaaIssuer): string[] {
  const [identity] = issuer.caaIdentities;
  if (!identity) return [];
  const plain = `${name}. CAA 0 issue "${identity}"`;
  return issuer.accountUri ? [plain, `${name}. CAA 0 issue "${identity}; accounturi=${issuer.accountUri}"`] : [plain];
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

export const caDisplayName = (issuer: CaaIssuer): string => CA_NAMES[issuer.caaIdentities[0] ?? ''] ?? issuer.name;

/**
 * The create-time warning (SPEC 2.2 and 7) when CAA allows none of the CAs we order from, with the
 * exact record that would allow each; undefined when one may issue.
 */
export function caaIssuersWarning(
  climb: readonly CaaClimbStep[],
  issuers: readonly CaaIssuer[],
): PreflightWarning | undefined {
  const verdicts = issuers.map((issuer) => caaAllowsIssuer(climb, issuer));
  if (verdicts.some((verdict) => verdict.allowed)) return undefined;
  const { relevantName, records } = verdicts[0] ?? { records: [] };
  const where = relevantName ?? 'this hostname';
  const names = issuers.map(caDisplayName).join(' or ');
  const allowing = issuers.flatMap((issuer) => caaRecordsAllowing(where, issuer));
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
