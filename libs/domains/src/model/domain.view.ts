import { challengeDelegation } from '@app/hostname-rules';
import { MONITOR_MESSAGES, MonitorStatus } from './domain.types';
import { registrarDnsMessage } from './monitor-message';
import type { EdgeSettings } from '@app/kernel';
import type { CertificateAttempt } from '@app/kernel';
import { DomainRecord } from './domain.record';

/** The record types a domain asks for: A at an apex, CNAME below it. */
export const DNS_RECORD_VIEW_TYPES = ['A', 'CNAME'] as const;

/**
 * `traffic`: points the hostname at the edge. `certificate`: delegates the ACME DNS-01 challenge to
 * this service (needed for a wildcard; for any name it lets the certificate come before the cutover).
 */
export const DNS_RECORD_PURPOSES = ['traffic', 'certificate'] as const;

export interface DnsRecordView {
  type: (typeof DNS_RECORD_VIEW_TYPES)[number];
  name: string;
  value: string;
  ttl: number;
  purpose: (typeof DNS_RECORD_PURPOSES)[number];
}

/** The canonical Domain object of the API and of webhook payloads. */
export interface DomainView {
  id: string;
  hostname: string;
  apex: boolean;
  originUrl: string;
  metadata: Record<string, unknown>;
  mode: string;
  keepHost: boolean;
  redirectWww: boolean;
  redirectStatus: number;
  projectId: string | null;
  status: string;
  statusReason: string | null;
  monitorStatus: string;
  monitorMessage: string;
  dnsRecords: DnsRecordView[];
  /**
   * Set for a domain bought through this service whose DNS is our registrar's: `dnsRecords` are written
   * there already and the owner has nothing to add (`monitorMessage` says so). Null otherwise.
   */
  registrarDns: { purchaseId: string } | null;
  certificate: CertificateView;
  verifiedAt: string | null;
  lastCheckedAt: string | null;
  createdAt: string;
  updatedAt: string;
}

/**
 * The certificate as the customer and support see it: the current one (expiry, planned renewal,
 * issuing CA) and the orders behind it: the last error in words to act on, its code, when the next
 * order may start, and the recent attempts (one per CA tried), newest last.
 */
export interface CertificateView {
  expiresAt: string | null;
  renewAt: string | null;
  issuer: string | null;
  error: string | null;
  errorCode: string | null;
  retryAt: string | null;
  attempts: CertificateAttempt[];
}

const DNS_TTL = 3600;

/** Subdomains CNAME to the edge; apex names (which cannot hold a CNAME everywhere) get A records. */
export function requiredDnsRecords(hostname: string, apex: boolean, edge: EdgeSettings): DnsRecordView[] {
  const purpose = 'traffic';
  if (apex) return edge.ipv4.map((value) => ({ type: 'A', name: hostname, value, ttl: DNS_TTL, purpose }));
  return [{ type: 'CNAME', name: hostname, value: edge.cnameTarget, ttl: DNS_TTL, purpose }];
}

/** The traffic records and, where a challenge zone is set up, the `_acme-challenge` delegation. */
export function domainDnsRecords(
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
