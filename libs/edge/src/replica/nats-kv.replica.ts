import { Logger } from '@nestjs/common';
import type { NatsBus } from '@app/bus';
import type { KV, KvEntry } from 'nats';
import { EdgeReplica, ReplicaWatcher } from './edge-replica';

const decoder = new TextDecoder();
const encoder = new TextEncoder();
const RETRY_WATCH_MS = 1_000;
const EMPTY = new Uint8Array(0);
/** JetStream's error code for a write whose expected last sequence did not match. */
const WRONG_LAST_SEQUENCE = 10071;
/** How a KV bucket marks a delete (or purge) in a key's message. */
const OPERATION_HEADER = 'KV-Operation';

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
    private readonly bus: NatsBus,
    private readonly bucket: string,
    /** The bucket answers direct gets (any replica, no stream leader round trip): NATS 2.9 and later. */
    private readonly direct: boolean,
  ) {
    super();
  }

  static async open(bus: NatsBus, bucket: string, replicas: number): Promise<NatsKvReplica> {
    const kv = await bus.connection.jetstream().views.kv(bucket, { history: 1, replicas });
    const direct = (await kv.status()).streamInfo.config.allow_direct === true;
    return new NatsKvReplica(kv, bus, bucket, direct);
  }

  // The writer reads, writes and deletes a key per changed hostname: these go through the bus's
  // reply mux as the JetStream API messages nats.js's KV would send (it builds an error object per
  // request). Keys are replicaKey()'s, valid subject tokens.

  async get(key: string): Promise<string | undefined> {
    if (!this.direct) {
      const entry = await this.kv.get(key);
      return entry && entry.operation === 'PUT' ? decoder.decode(entry.value) : undefined;
    }
    const stored = await this.bus.rawRequest(`$JS.API.DIRECT.GET.KV_${this.bucket}.${this.subject(key)}`, EMPTY);
    const status = stored.data.length === 0 ? (stored.headers?.code ?? 0) : 0;
    if (status === 404) return undefined;
    if (status >= 300)
      throw new Error(`Reading ${key} from ${this.bucket} failed: ${stored.headers?.description} (${status})`);
    const operation = stored.headers?.get(OPERATION_HEADER);
    return operation === 'DEL' || operation === 'PURGE' ? undefined : decoder.decode(stored.data);
  }

  async put(key: string, value: string): Promise<void> {
    await this.bus.publishToStream(this.subject(key), encoder.encode(value));
  }

  async create(key: string, value: string): Promise<boolean> {
    try {
      await this.kv.create(key, encoder.encode(value));
      return true;
    } catch (error) {
      // JetStream's "wrong last sequence": the key holds a value (or another create won the race).
      if ((error as { api_error?: { err_code?: number } }).api_error?.err_code === WRONG_LAST_SEQUENCE) return false;
      throw error;
    }
  }

  async delete(key: string): Promise<void> {
    await this.bus.publishToStream(this.subject(key), EMPTY, { [OPERATION_HEADER]: 'DEL' });
  }

  private subject(key: string): string {
    return `$KV.${this.bucket}.${key}`;
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
    const stopListening = this.bus.onConnectionChange((connected) => {
      if (!connected) return;
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
