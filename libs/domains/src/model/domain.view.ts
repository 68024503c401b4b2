import { challengeDelegation } from '@app/hostname-rules';
import {
  arrayOf,
  bool,
  certificateAttemptSchema,
  dateTime,
  described,
  freeForm,
  Infer,
  int,
  intValues,
  nullable,
  obj,
  oneOfValues,
  ref,
  str,
  uri,
} from '@app/kernel';
import type { EdgeSettings } from '@app/kernel';
import { DOMAIN_MODES, DomainRecord, REDIRECT_STATUSES } from './domain.record';
import { DOMAIN_STATUSES, MONITOR_MESSAGES, MONITOR_STATUSES, MonitorStatus, STATUS_REASONS } from './domain.types';
import { registrarDnsMessage } from './monitor-message';

/** The record types a domain asks for: A at an apex, CNAME below it. */
export const DNS_RECORD_VIEW_TYPES = ['A', 'CNAME'] as const;

/**
 * `traffic`: points the hostname at the edge. `certificate`: delegates the ACME DNS-01 challenge to
 * this service (needed for a wildcard; for any name it lets the certificate come before the cutover).
 */
export const DNS_RECORD_PURPOSES = ['traffic', 'certificate'] as const;

export const dnsRecordSchema = obj({
  type: oneOfValues(...DNS_RECORD_VIEW_TYPES),
  name: str(),
  value: str(),
  ttl: int(),
  purpose: described(
    oneOfValues(...DNS_RECORD_PURPOSES),
    '`traffic`: points the hostname at the edge. `certificate`: `_acme-challenge.<name>` CNAME to this ' +
      "service's challenge zone, added once: required for a wildcard hostname; for any hostname it lets the " +
      'certificate be issued before DNS moves (the domain then says `ready_to_switch`)',
  ),
});
export type DnsRecordView = Infer<typeof dnsRecordSchema>;

/**
 * The certificate as the customer and support see it: the current one (expiry, planned renewal,
 * issuing CA) and the orders behind it: the last error in words to act on, its code, when the next
 * order may start, and the recent attempts (one per CA tried), newest last.
 */
const certificateSchema = obj({
  expiresAt: dateTime(true),
  renewAt: described(
    dateTime(true),
    "When it is renewed: a random time in the CA's ARI window, or when a half to a third of its lifetime is left",
  ),
  issuer: nullable(str('Which of the configured CAs issued the current certificate (ACME_ISSUERS name)')),
  error: nullable(str('The last failed order, in words that say what to do; null once a certificate is issued')),
  errorCode: nullable(
    str(
      '`caa_forbids`, `validation_failed`, `ca_rate_limited`, `ca_unavailable`, `ca_refused`, `ca_account`, ' +
        '`ca_error`, `internal_error`, `budget` (waiting for our count of the CA limits) or `queued` (behind other orders)',
    ),
  ),
  retryAt: described(
    dateTime(true),
    'No new order before this time (a check may order sooner after a CAA or validation failure)',
  ),
  attempts: described(arrayOf(certificateAttemptSchema), 'The most recent order attempts (up to 10), oldest first'),
});

/** The canonical Domain object of the API and of webhook payloads (`Domain` in the API document). */
export const domainSchema = obj({
  id: str('`dom_...`'),
  hostname: str(),
  apex: bool,
  originUrl: uri(),
  metadata: freeForm,
  mode: oneOfValues(...DOMAIN_MODES),
  keepHost: bool,
  redirectWww: bool,
  redirectStatus: intValues(REDIRECT_STATUSES),
  projectId: nullable(str('The project the domain belongs to (`prj_...`), or null')),
  status: oneOfValues(...DOMAIN_STATUSES),
  statusReason: nullable(
    described(
      oneOfValues(...STATUS_REASONS),
      'Why the domain failed or expired: `dns_never_correct`, `dns_drift`, `origin_blocked`, ' +
        '`certificate_expired`, `billing_ended`, `moved_to_another_owner` (another workspace proved control of ' +
        'the hostname; final)',
    ),
  ),
  monitorStatus: oneOfValues(...MONITOR_STATUSES),
  monitorMessage: str(
    'Customer-facing explanation of monitorStatus. For dns_incorrect and dns_not_resolving it names the exact ' +
      'mistake when the monitor recognizes it: AAAA records to delete, a Cloudflare-proxied record to switch to ' +
      'DNS only, broken DNSSEC or nameservers (SERVFAIL), or an old record still cached with the time it expires',
  ),
  dnsRecords: arrayOf(ref('DnsRecord', dnsRecordSchema)),
  registrarDns: described(
    nullable(obj({ purchaseId: str('The purchase that wrote the records (`pur_...`)') })),
    'Set for a domain bought through this service whose DNS is our registrar’s: `dnsRecords` are written there ' +
      'already and the owner has nothing to add (`monitorMessage` says so). Null otherwise, and once custom ' +
      'nameservers move the DNS elsewhere',
  ),
  certificate: certificateSchema,
  verifiedAt: dateTime(true),
  lastCheckedAt: dateTime(true),
  createdAt: dateTime(),
  updatedAt: dateTime(),
});
export type DomainView = Infer<typeof domainSchema>;

const DNS_TTL = 3600;

/** Subdomains CNAME to the edge; apex names (which cannot hold a CNAME everywhere) get A records. */
export function requiredDnsRecords(hostname: string, apex: boolean, edge: EdgeSettings): DnsRecordView[] {
  const purpose = 'traffic';
  if (apex) return edge.ipv4.map((value) => ({ type: 'A', name: hostname, value, ttl: DNS_TTL, purpose }));
  return [{ type: 'CNAME', name: hostname, value: edge.cnameTarget, ttl: DNS_TTL, purpose }];
}

/** The traffic records and, where a challenge zone is set up, the `_acme-challenge` delegation. */
function domainDnsRecords(
  record: Pick<DomainRecord, 'hostname' | 'apex' | 'workspaceId'>,
  edge: EdgeSettings,
): DnsRecordView[] {
  const traffic = requiredDnsRecords(record.hostname, record.apex, edge);
  if (!edge.challengeZone) return traffic;
  const { name, target } = challengeDelegation(record.hostname, record.workspaceId, edge.challengeZone);
  return [...traffic, { type: 'CNAME', name, value: target, ttl: DNS_TTL, purpose: 'certificate' }];
}

export function toDomainView(record: DomainRecord, edge: EdgeSettings): DomainView {
  const machine = record.machine;
  return {
    id: record.id,
    hostname: record.hostname,
    apex: record.apex,
    originUrl: record.originUrl,
    metadata: record.metadata,
    mode: record.mode,
    keepHost: record.keepHost,
    redirectWww: record.redirectWww,
    redirectStatus: record.redirectStatus,
    projectId: record.projectId ?? null,
    status: machine.status,
    statusReason: machine.statusReason ?? null,
    monitorStatus: machine.monitorStatus,
    monitorMessage: record.registrarDns
      ? registrarDnsMessage(machine.monitorStatus, monitorMessageOf(record))
      : monitorMessageOf(record),
    dnsRecords: domainDnsRecords(record, edge),
    registrarDns: record.registrarDns ? { purchaseId: record.registrarDns.purchaseId } : null,
    certificate: {
      expiresAt: machine.certificateExpiresAt ?? null,
      renewAt: machine.certificateRenewAt ?? null,
      issuer: machine.certificateExpiresAt ? (record.certificateIssuer ?? null) : null,
      error: machine.certificateError ?? record.certificateNote ?? null,
      errorCode: machine.certificateError || record.certificateNote ? (record.certificateErrorCode ?? null) : null,
      retryAt: record.certificateRetryAt ?? null,
      attempts: record.certificateAttempts ?? [],
    },
    verifiedAt: record.verifiedAt ?? null,
    lastCheckedAt: machine.lastProbeAt ?? null,
    createdAt: record.createdAt,
    updatedAt: record.updatedAt,
  };
}

/**
 * SPEC 3.3's line for the state, unless an order failed: then what went wrong and what to do, while
 * the domain waits for its certificate (pending_ssl) or after a refusal (ssl_failed).
 */
function monitorMessageOf(record: DomainRecord): string {
  const { machine } = record;
  if (machine.monitorStatus === 'ssl_failed' && machine.certificateError)
    return `Certificate issuance failed: ${machine.certificateError}`;
  if (machine.monitorStatus === 'pending_ssl' && record.certificateNote) return record.certificateNote;
  // SPEC 3.3's DNS lines name a CNAME; an apex is asked for A records, so its line names those.
  const apexLine = record.apex && APEX_MESSAGES[machine.monitorStatus];
  if (apexLine && machine.monitorMessage === MONITOR_MESSAGES[machine.monitorStatus]) return apexLine;
  return machine.monitorMessage;
}

const APEX_MESSAGES: Partial<Record<MonitorStatus, string>> = {
  dns_not_resolving: 'Add the A records at your registrar',
  dns_incorrect: 'Update your A records',
};
