import type { EdgeSettings } from '@app/kernel';
import { DomainRecord } from './domain.record';

/** The record types a domain asks for: A at an apex, CNAME below it. */
export const DNS_RECORD_VIEW_TYPES = ['A', 'CNAME'] as const;

export interface DnsRecordView {
  type: (typeof DNS_RECORD_VIEW_TYPES)[number];
  name: string;
  value: string;
  ttl: number;
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
  certificate: { expiresAt: string | null; error: string | null; retryAt: string | null };
  verifiedAt: string | null;
  lastCheckedAt: string | null;
  createdAt: string;
  updatedAt: string;
}

const DNS_TTL = 3600;

/** Subdomains CNAME to the edge; apex names (which cannot hold a CNAME everywhere) get A records. */
export function requiredDnsRecords(hostname: string, apex: boolean, edge: EdgeSettings): DnsRecordView[] {
  if (apex) return edge.ipv4.map((value) => ({ type: 'A', name: hostname, value, ttl: DNS_TTL }));
  return [{ type: 'CNAME', name: hostname, value: edge.cnameTarget, ttl: DNS_TTL }];
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
    monitorMessage:
      machine.monitorStatus === 'ssl_failed' && machine.certificateError
        ? `Certificate issuance failed: ${machine.certificateError}`
        : machine.monitorMessage,
    dnsRecords: requiredDnsRecords(record.hostname, record.apex, edge),
    certificate: {
      expiresAt: machine.certificateExpiresAt ?? null,
      error: machine.certificateError ?? record.certificateNote ?? null,
      retryAt: record.certificateRetryAt ?? null,
    },
    verifiedAt: record.verifiedAt ?? null,
    lastCheckedAt: machine.lastProbeAt ?? null,
    createdAt: record.createdAt,
    updatedAt: record.updatedAt,
  };
}
