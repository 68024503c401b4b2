import type { DomainStatus, MonitorStatus } from '@app/domains';
import { wwwTwin } from '@app/kernel';
import type { EdgeRoute } from '../edge-route';

/** A certificate as replicated: the chain as stored, the key still sealed with ENCRYPTION_KEY. */
export interface ReplicaCertificate {
  chainPem: string;
  keySealed: string;
}

/** What every edge holds of one live domain: its route and its current certificate, if any. */
export interface ReplicaEntry {
  domainId: string;
  hostname: string;
  status: DomainStatus;
  monitorStatus: MonitorStatus;
  mode: 'proxy' | 'redirect';
  originUrl: string;
  keepHost: boolean;
  redirectWww: boolean;
  redirectStatus: 301 | 302;
  certificate?: ReplicaCertificate;
}

// Replica keys follow NATS subject rules (no `*`): `h.<hostname>`, `w.<base>` for `*.<base>`.
const EXACT = 'h.';
const WILDCARD = 'w.';
/** Where the writers keep the change log position they replicated up to. */
export const CHECKPOINT_KEY = 'm.checkpoint';
/** Held by the writer loading every live domain (`{by, at}`): the others wait for its checkpoint. */
export const LOADING_KEY = 'm.loading';

export function replicaKey(hostname: string): string {
  return hostname.startsWith('*.') ? WILDCARD + hostname.slice(2) : EXACT + hostname;
}

/** The hostname a key holds; undefined for keys that are not entries (the checkpoint, the load's lease). */
export function hostnameOfKey(key: string): string | undefined {
  if (key.startsWith(EXACT)) return key.slice(EXACT.length);
  if (key.startsWith(WILDCARD)) return `*.${key.slice(WILDCARD.length)}`;
  return undefined;
}

const STRING_FIELDS = ['domainId', 'hostname', 'status', 'monitorStatus', 'originUrl'] as const;

/** A replicated value, checked field by field: a malformed one is refused rather than half served. */
export function parseReplicaEntry(text: string): ReplicaEntry | undefined {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (typeof raw !== 'object' || raw === null) return undefined;
  const r = raw as Record<string, unknown>;
  if (!STRING_FIELDS.every((f) => typeof r[f] === 'string')) return undefined;
  if (r.mode !== 'proxy' && r.mode !== 'redirect') return undefined;
  if (typeof r.keepHost !== 'boolean' || typeof r.redirectWww !== 'boolean') return undefined;
  if (r.redirectStatus !== 301 && r.redirectStatus !== 302) return undefined;
  const c = r.certificate as Record<string, unknown> | undefined;
  if (c !== undefined && (typeof c?.chainPem !== 'string' || typeof c.keySealed !== 'string')) return undefined;
  return raw as ReplicaEntry;
}

/**
 * The route of `hostname` from the replicated entries: its own domain, else the www twin of one
 * with `redirectWww`, else the wildcard one label up (`a.example.com` is served by `*.example.com`,
 * `a.b.example.com` is not). An exact name always wins over a wildcard.
 */
export function routeOf(
  entries: (hostname: string) => ReplicaEntry | undefined,
  hostname: string,
): EdgeRoute | undefined {
  const exact = entries(hostname);
  if (exact) return toRoute(exact, false);
  const twinName = wwwTwin(hostname);
  const twin = twinName ? entries(twinName) : undefined;
  if (twin?.redirectWww) return toRoute(twin, true);
  const dot = hostname.indexOf('.');
  if (dot === -1 || !hostname.includes('.', dot + 1)) return undefined;
  const wildcard = entries(`*.${hostname.slice(dot + 1)}`);
  return wildcard ? { ...toRoute(wildcard, false), hostname, wildcard: wildcard.hostname } : undefined;
}

function toRoute(e: ReplicaEntry, twin: boolean): EdgeRoute {
  return {
    domainId: e.domainId,
    hostname: e.hostname,
    twin,
    status: e.status,
    monitorStatus: e.monitorStatus,
    mode: e.mode,
    originUrl: e.originUrl,
    keepHost: e.keepHost,
    redirectStatus: e.redirectStatus,
  };
}
