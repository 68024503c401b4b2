/** Injection token of the process's `EdgeReplica`. */
export const EDGE_REPLICA = Symbol('EDGE_REPLICA');
/** Whether this process runs a replica writer (nodes on NATS; the edge itself on the in-process bus). */
export const REPLICA_WRITER_RUNS = Symbol('REPLICA_WRITER_RUNS');
