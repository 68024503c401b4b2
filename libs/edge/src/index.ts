/** The edge data plane: TLS by SNI, proxy and redirect to origins, ACME HTTP-01 answers. */
export { EdgeModule } from './edge.module';
export type { EdgeOptions } from './edge.options';
export { RouteStore } from './route.store';
export { EdgeReplicaWriterModule } from './replica/edge-replica-writer.module';
export { EdgeReplicaWriter } from './replica/edge-replica-writer.service';
export { EdgeReplica } from './replica/edge-replica';
export { EDGE_REPLICA } from './replica/replica.tokens';
// The replica's shape and names, for benchmarks that fill a bucket without a node.
export { replicaBucket } from './replica/nats-kv.replica';
export { CHECKPOINT_KEY, replicaKey, type ReplicaEntry } from './replica/replica-entry';
