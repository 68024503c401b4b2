/** A change seen by a watcher: `value` undefined means the key was deleted. */
export interface ReplicaChange {
  key: string;
  value?: string;
  revision: number;
}

export interface ReplicaWatcher {
  /** Each current value (after `afterRevision`, when given), then every change as it happens. */
  onChange(change: ReplicaChange): void;
  /** Once, when the values that existed at the start of the watch have all been delivered. */
  onReady(): void;
}

/**
 * The replicated copy of routes and certificates the edges serve from: a JetStream KV bucket on
 * NATS, an in-process log in standalone. Written by the replica writers, read by every edge.
 */
export abstract class EdgeReplica {
  abstract get(key: string): Promise<string | undefined>;
  abstract put(key: string, value: string): Promise<void>;
  /** Writes `value` only if the key holds none (absent or deleted); false when it holds one. */
  abstract create(key: string, value: string): Promise<boolean>;
  abstract delete(key: string): Promise<void>;
  abstract keys(): Promise<string[]>;
  /** Watches every key; a watcher cut off resumes after the last revision it saw (a catch-up, not a reload). */
  abstract watch(watcher: ReplicaWatcher, afterRevision?: number): () => void;
}
