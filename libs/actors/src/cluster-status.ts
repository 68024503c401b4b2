import { Bus } from '@app/bus';
import { CLUSTER_STATUS_SUBJECT, NodeStatus } from './actor-node';
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
}

/** Summarizes a node's shards as ranges: `0-3,7,9-12`. */
export function shardRanges(shards: number[]): string {
  const ranges: string[] = [];
  for (let i = 0; i < shards.length; i++) {
    let j = i;
    while (j + 1 < shards.length && shards[j + 1] === shards[j] + 1) j++;
    ranges.push(i === j ? `${shards[i]}` : `${shards[i]}-${shards[j]}`);
    i = j;
  }
  return ranges.join(',');
}

/** Which node owns which shards, asked of every node over the control subject. */
export async function askClusterStatus(bus: Bus): Promise<ClusterStatus> {
  const nodes = ((await bus.gather(CLUSTER_STATUS_SUBJECT, {}, GATHER_MS)) as NodeStatus[]).sort((a, b) =>
    a.nodeId.localeCompare(b.nodeId),
  );
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
  };
}
