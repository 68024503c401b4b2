/** The actor runtime: what features and processes use of it (everything else stays inside). */
export { ActorClientModule, ActorNodeModule, ActorRegistry } from './actors.module';
export { ActorClient } from './actor-client';
export { ActorNode } from './actor-node';
export { ActorHost } from './actor-host';
export type { WriteSink } from './actor-host';
export { ActorMetrics } from './actors.metrics';

// Declaring a kind: its protocol, its handlers and where it keeps snapshots.
export { dispatch } from './actor-protocol';
export type { ProtocolActor, ProtocolHandlers, ReplyOf } from './actor-protocol';
export type {
  ActorContext,
  ActorKind,
  ActorRequest,
  ActorResponse,
  Decision,
  OutboxEvent,
  Snapshot,
  SnapshotStatement,
  SnapshotStore,
  SnapshotWrite,
  StatementParam,
} from './actor.types';
export { JsonSnapshotStore } from './json-snapshot.store';
export { SnapshotRow, snapshotsById } from './snapshot-rows';
export type { PendingWrite } from './snapshot-writer';

// Shards, placement and the cluster's state (for the monitor, the console and the tests).
export { SHARD_COUNT, hash53, shardOf } from './shard';
export { member, ownerOf } from './placement';
export { DEFAULT_MEMBERSHIP } from './membership';
export { DEFAULT_LEASE_TIMINGS } from './shard-manager';
export { askClusterStatus } from './cluster-status';
export type { ClusterStatus } from './cluster-status';
// The lease statements, which their test drives on a real database.
export { LeaseRepository, fenceSql } from './lease.repository';
export type { Lease } from './lease.repository';
export { PRESENCE_LOCK_CLASS, PgPresence, PresenceLostError } from './presence';
