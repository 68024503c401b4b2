import type { Decision } from '@app/kernel';
import type { ServedCertificate } from '@app/hostname-rules';
import { ChallengeDelegation, DnsObservation, DnsProblem } from '@app/hostname-rules';
import { DomainRecord } from './domain.record';
import type { EdgeSettings } from '@app/kernel';

/**
 * What the domain decider asks its runner for, as data. A query's answer is fed back into the
 * same decision (the decider runs again with it); an effect is only carried out.
 */
export type DomainQuery =
  /**
   * Whether a live domain (not released to another workspace) already holds the hostname, or
   * another workspace's takeover guard does (its domain deleted while DNS still pointed at us).
   */
  | { type: 'hostname_taken'; hostname: string; workspaceId: string }
  /** Where the hostname's DNS points now (a deletion records whether it is left dangling at us). */
  | { type: 'dns'; hostname: string }
  /**
   * The same probe the monitor runs, now: the origin against the SSRF rules, then DNS, then TLS;
   * with `delegation`, also whether `_acme-challenge` is delegated to us (pre-validation).
   */
  | {
      type: 'probe';
      hostname: string;
      originUrl: string;
      readServedCertificate: boolean;
      delegation?: ChallengeDelegation;
    };

/** The answers so far, one per query type. */
export interface DomainAnswers {
  hostnameTaken?: HostnameHold;
  probe?: ProbeOutcome;
  /** `lookup_failed`: no answer from DNS (the last probe's verdict stands in). */
  dns?: DnsObservation | 'lookup_failed';
}

/** Who keeps a hostname from a new domain: nobody, a live domain, or another workspace's takeover guard. */
export type HostnameHold = { held: false } | { held: 'connected' } | { held: 'guarded'; until: string };

/** What a probe saw; `served` only when DNS was correct and the domain holds a certificate. */
export type ProbeOutcome =
  | { originBlocked: true }
  | {
      originBlocked: false;
      dns: DnsObservation;
      problem?: DnsProblem;
      served?: ServedCertificate['outcome'];
      /** The `_acme-challenge` delegation was asked about and is in place. */
      delegated?: boolean;
    };

/**
 * Orders a certificate in the background; `twin`: the www twin of a `redirectWww` domain;
 * `workspaceId` for the fair queue; `failures`: failed orders since the last certificate (back-off).
 */
export type DomainEffect = {
  type: 'order_certificate';
  id: string;
  hostname: string;
  workspaceId: string;
  failures: number;
  twin?: string;
};

/** Either a query to answer first, or the decision (state, events, reply) and the effects to carry out. */
export type DomainOutcome<R> = { need: DomainQuery } | { decision: Decision<DomainRecord, R>; effects: DomainEffect[] };

/** What every decision reads besides the record: the time, the id and the node's settings. */
export interface DomainEnv {
  id: string;
  now: Date;
  edge: EdgeSettings;
  /** Renew from this many days before expiry. */
  renewDays: number;
  /** Where in each monitor interval this domain is probed, in [0, 1) (for a new domain). */
  probePhase: number;
  /** How long a deletion with DNS still at the edge keeps the hostname from others (0: never). */
  takeoverGuardDays: number;
}
