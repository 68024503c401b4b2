import type { DomainRecord } from './domain.record';
import type { DomainState } from './domain.types';

/**
 * What the monitor's probe needs of a domain, kept beside its schedule entry on the shard owner's
 * node so that a probe reads nothing from PostgreSQL. Every write of the domain goes through that
 * node's DomainStore, which hands it the new view. The state machine stays JSON until a probe
 * parses it: about half the memory of the object.
 */
export interface ProbeView {
  hostname: string;
  workspaceId: string;
  originUrl: string;
  machineJson: string;
  /** A new certificate no probe has read from the edge yet (DomainRecord.servedCheckPending). */
  servedCheckPending: boolean;
}

export const probeViewOf = (record: DomainRecord): ProbeView => ({
  hostname: record.hostname,
  workspaceId: record.workspaceId,
  originUrl: record.originUrl,
  machineJson: JSON.stringify(record.machine),
  servedCheckPending: record.servedCheckPending === true,
});

export const machineOf = (view: ProbeView): DomainState => JSON.parse(view.machineJson) as DomainState;
