import { Bus } from '@app/bus';
import { PROCESS_STATUS_SUBJECT, ProcessStatus } from '@app/kernel';
import { CLUSTER_STATUS_SUBJECT, NodeStatus } from './actor-node';
import { Departure, mergeDepartures } from './departures';
import { SHARD_COUNT } from './shard';

/** How long every node has to answer the status question. */
const GATHER_MS = 750;

export interface ClusterStatus {
  shardCount: number;
  unowned: number;
  nodes: {
    nodeId: string;
    draining: boolean;
    shardsOwned: number;
    shards: string;
    residentActors: number;
    mailboxDepth: number;
    members: string[];
    /** Per second over the last minute: `monitorProbes`, `webhookAttempts` (what the node runs). */
    rates: Record<string, number>;
  }[];
  /** Every process that answered (api, node, edge, standalone), by role and name. */
  processes: ProcessStatus[];
  /** Nodes that left within the hour and are not back: when, and why (`left`, `killed`, `silent`). */
  departed: Departure[];
}

/** Summarizes a node's shards as ranges: `0-3,7,9-12`. */
function shardRanges(shards: number[]): string {
  const ranges: string[] = [];
  for (let i = 0; i < shards.length; i++) {
    let j = i;
    while (j + 1 < shards.length && shards[j + 1] === shards[j] + 1) j++;
    ranges.push(i === j ? `${shards[i]}` : `${shards[i]}-${shards[j]}`);
    i = j;
  }
  return ranges.join(',');
}

/** Which node owns which shards, asked of every node over the control subject; and who else is there. */
export async function askClusterStatus(bus: Bus): Promise<ClusterStatus> {
  const [answers, processes] = await Promise.all([
    bus.gather(CLUSTER_STATUS_SUBJECT, {}, GATHER_MS) as Promise<NodeStatus[]>,
    bus.gather(PROCESS_STATUS_SUBJECT, {}, GATHER_MS) as Promise<ProcessStatus[]>,
  ]);
  const nodes = answers.sort((a, b) => a.nodeId.localeCompare(b.nodeId));
  const present = new Set(nodes.map((n) => n.nodeId));
  const owned = nodes.reduce((sum, n) => sum + n.shards.length, 0);
  return {
    shardCount: SHARD_COUNT,
    unowned: SHARD_COUNT - owned,
    nodes: nodes.map((n) => ({
      nodeId: n.nodeId,
      draining: n.draining,
      shardsOwned: n.shards.length,
      shards: shardRanges(n.shards),
      residentActors: n.residentActors,
      mailboxDepth: n.mailboxDepth,
      members: n.members,
      // A node of an older version answers without rates.
      rates: n.rates ?? {},
    })),
    processes: processes.sort((a, b) => a.role.localeCompare(b.role) || a.nodeId.localeCompare(b.nodeId)),
    departed: mergeDepartures(
      nodes.map((n) => n.departed ?? []),
      present,
    ),
  };
}
