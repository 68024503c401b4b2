import type { DomainRecord } from './domain.record';
import type { DomainState } from './domain.types';

/**
 * What the monitor's probe needs of a domain, kept beside its schedule entry on the shard owner's
 * node so that a probe reads nothing from PostgreSQL. Every write of the domain goes through that
 * node's DomainStore, which hands it the new view. The state machine stays JSON until a probe
 * parses it. Keeping the parsed object instead was tried (stop 54): smaller in a loop (352 against 536
 * bytes per state), but the monitor benchmark was not faster with it (BENCHMARKS.md, domains.monitor).
 */
export interface ProbeView {
  hostname: string;
  workspaceId: string;
  originUrl: string;
  machineJson: string;
  /** A new certificate no probe has read from the edge yet (DomainRecord.servedCheckPending). */
  servedCheckPending: boolean;
  /**
   * Until when (epoch ms) a probe that sees DNS right changes nothing: the verdict of an earlier probe
   * of this view, kept until its certificate's clock moves (`certificateValidUntil`). A write of the
   * domain gives it a new view, which starts at 0 (ask the machine).
   */
  quietUntil: number;
}

export const probeViewOf = (record: DomainRecord): ProbeView => ({
  hostname: record.hostname,
  workspaceId: record.workspaceId,
  originUrl: record.originUrl,
  machineJson: JSON.stringify(record.machine),
  servedCheckPending: record.servedCheckPending === true,
  quietUntil: 0,
});

const machineOf = (view: ProbeView): DomainState => JSON.parse(view.machineJson) as DomainState;

/** What a probe needs of a due domain: built from its view when the probe starts. */
export interface DueDomain {
  id: string;
  hostname: string;
  /** Whose `_acme-challenge` delegation the probe checks (the label is per workspace). */
  workspaceId: string;
  shard: number;
  originUrl: string;
  probePhase: number;
  /** The stored state machine, to tell a probe that changes nothing without waking the actor. */
  machine: DomainState;
  /** A new certificate no probe has read from the edge yet (DomainRecord.servedCheckPending). */
  servedCheckPending: true | null;
}

/** The probe's input from a schedule entry and its view: nothing read from the database. */
export const dueDomainOf = (entry: { id: string; shard: number; phase: number }, view: ProbeView): DueDomain => ({
  id: entry.id,
  hostname: view.hostname,
  workspaceId: view.workspaceId,
  shard: entry.shard,
  originUrl: view.originUrl,
  probePhase: entry.phase,
  machine: machineOf(view),
  servedCheckPending: view.servedCheckPending ? true : null,
});
