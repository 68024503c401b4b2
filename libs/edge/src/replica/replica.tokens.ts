/** Injection token of the process's `EdgeReplica`. */
export const EDGE_REPLICA = Symbol('EDGE_REPLICA');
/**
 * Injection token of the process's `ReplicaWriterMode`: whether it runs a replica writer (nodes on
 * NATS; the edge's own process on the in-process bus), and whether its first copy holds the start.
 */
export const REPLICA_WRITER_MODE = Symbol('REPLICA_WRITER_MODE');

/**
 * `beforeStart`: the edge reading the replica is in this process, so its ports open on the whole
 * copy. `inBackground`: the edges are other processes (they serve their last copy meanwhile), so a
 * node's actors do not wait for a first load that can take a minute at a million domains.
 */
export type ReplicaWriterMode = 'off' | 'beforeStart' | 'inBackground';
