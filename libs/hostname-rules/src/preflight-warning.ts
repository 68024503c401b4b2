import { arrayOf, described, Infer, obj, oneOfValues, str } from '@app/kernel';
import { DnsProblem, DnsProblemKind, dnsProblemMessage } from './dns-problem';

/**
 * The codes of a PreflightWarning: CAA, then `dns_<kind>` for each DnsProblemKind. `satisfies` rejects
 * a code that names no kind; dnsProblemWarning's `dns_${kind}` fails to compile when a kind is missing.
 */
export const PREFLIGHT_WARNING_CODES = [
  'caa_blocks_letsencrypt',
  'dns_stray_aaaa',
  'dns_proxied',
  'dns_broken_delegation',
  'dns_stale_cache',
] as const satisfies readonly ('caa_blocks_letsencrypt' | `dns_${DnsProblemKind}`)[];

/** A non-blocking finding of domain create: CAA, or a DNS mistake named by dns-problem.ts. */
export const preflightWarningSchema = obj(
  {
    code: described(
      oneOfValues(...PREFLIGHT_WARNING_CODES),
      '`caa_blocks_letsencrypt`; or a DNS mistake found before connecting: AAAA records beside correct A ' +
        'records (`dns_stray_aaaa`), a record proxied by Cloudflare (`dns_proxied`), SERVFAIL under a delegated ' +
        'zone: broken DNSSEC or nameservers (`dns_broken_delegation`), the right record at the nameservers but ' +
        'the old one still cached by resolvers (`dns_stale_cache`). The message names the record to change',
    ),
    message: str(),
    /** The CAA records found (empty for DNS warnings, which name theirs in `records`). */
    caaRecords: arrayOf(str()),
    records: arrayOf(str('DNS warnings: the records concerned, e.g. `AAAA 2001:db8::1`, `NS ns1.host.net`')),
  },
  ['records'],
);
export type PreflightWarning = Infer<typeof preflightWarningSchema>;

/** The create answer's warning for a DNS problem found before connecting (`dns_<kind>`). */
export function dnsProblemWarning(problem: DnsProblem): PreflightWarning {
  return {
    code: `dns_${problem.kind}`,
    message: dnsProblemMessage(problem),
    caaRecords: [],
    records: problemRecords(problem),
  };
}

/** The records a problem concerns, in presentation form. */
function problemRecords(problem: DnsProblem): string[] {
  switch (problem.kind) {
    case 'stray_aaaa':
      return problem.aaaa.map((address) => `AAAA ${address}`);
    case 'proxied':
      return problem.addresses.map((address) => `${address.includes(':') ? 'AAAA' : 'A'} ${address}`);
    case 'broken_delegation':
      return problem.nameservers.map((ns) => `NS ${ns}`);
    case 'stale_cache':
      return [problem.cached];
  }
}
