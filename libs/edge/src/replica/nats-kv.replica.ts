import { Logger } from '@nestjs/common';
import type { NatsBus } from '@app/bus';
import type { KV, KvEntry } from 'nats';
import { EdgeReplica, ReplicaWatcher } from './edge-replica';

const decoder = new TextDecoder();
const encoder = new TextEncoder();
const RETRY_WATCH_MS = 1_000;

/** `edge_routes`, or `edge_routes_<prefix>` under NATS_SUBJECT_PREFIX. */
export const replicaBucket = (prefix: string): string => (prefix ? `edge_routes_${prefix}` : 'edge_routes');

/**
 * The replica as a JetStream KV bucket (one value per key, replicated over the NATS cluster with
 * NATS_REPLICAS). A watch is an ordered consumer that goes on from the last revision it delivered;
 * on every reconnect it is started again from there at once (the consumer's own reset waits for
 * missed heartbeats, seconds after a server restart), and so if it ends.
 */
export class NatsKvReplica extends EdgeReplica {
  private readonly logger = new Logger(NatsKvReplica.name);

  private constructor(
    private readonly kv: KV,
    private readonly onReconnect: (listener: () => void) => () => void,
  ) {
    super();
  }

  static async open(bus: NatsBus, bucket: string, replicas: number): Promise<NatsKvReplica> {
    const kv = await bus.connection.jetstream().views.kv(bucket, { history: 1, replicas });
    return new NatsKvReplica(kv, (listener) => bus.onConnectionChange((connected) => connected && listener()));
  }

  async get(key: string): Promise<string | undefined> {
    const entry = await this.kv.get(key);
    return entry && entry.operation === 'PUT' ? decoder.decode(entry.value) : undefined;
  }

  async put(key: string, value: string): Promise<void> {
    await this.kv.put(key, encoder.encode(value));
  }

  async delete(key: string): Promise<void> {
    await this.kv.delete(key);
  }

  async keys(): Promise<string[]> {
    const keys: string[] = [];
    for await (const key of await this.kv.keys()) keys.push(key);
    return keys;
  }

  watch(watcher: ReplicaWatcher, afterRevision = 0): () => void {
    let stopped = false;
    let last = afterRevision;
    let ready = false;
    let iterator: { stop(): void } | undefined;
    let restarting = false;
    const stopListening = this.onReconnect(() => {
      restarting = true;
      iterator?.stop();
    });
    const markReady = () => {
      if (!ready) watcher.onReady();
      ready = true;
    };
    const run = async () => {
      while (!stopped) {
        try {
          const entries = await this.kv.watch({
            ...(last > 0 ? { resumeFromRevision: last + 1 } : {}),
            initializedFn: markReady,
          });
          iterator = entries;
          for await (const entry of entries) {
            last = entry.revision;
            watcher.onChange(changeOf(entry));
          }
        } catch (error) {
          if (!stopped) this.logger.warn({ err: error, revision: last }, 'Edge replica watch failed; resuming');
        }
        if (!stopped && !restarting) await new Promise((resolve) => setTimeout(resolve, RETRY_WATCH_MS).unref());
        restarting = false;
      }
    };
    void run();
    return () => {
      stopped = true;
      stopListening();
      iterator?.stop();
    };
  }
}

function changeOf(entry: KvEntry) {
  const deleted = entry.operation !== 'PUT';
  return { key: entry.key, revision: entry.revision, value: deleted ? undefined : decoder.decode(entry.value) };
}
