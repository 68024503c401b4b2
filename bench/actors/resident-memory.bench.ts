import { randomUUID } from 'node:crypto';
import {
  ActorHost,
  ActorKind,
  ActorMetrics,
  ActorRequest,
  PendingWrite,
  SnapshotStatement,
  SnapshotStore,
  WriteSink,
  shardOf,
} from '@app/actors';
import { InProcessBus } from '@app/bus';
import type { SqlExecutor } from '@app/persistence';
import { COUNTER_KIND, CounterActor, CounterState } from '../../test/fixtures/counter.actor';
import { round } from '../lib/stats';
import { ACTORS_AREA, Benchmark, Measured, figure } from '../lib/types';

const RESIDENTS = 100_000;
const BATCH = 1_000;

/** As long as a real id (`dom_` and 22 base62 characters, libs/persistence/src/ids.ts). */
const actorId = (i: number) => `dom_${i.toString().padStart(22, '0')}`;

/** The database stand-in: nothing is kept, so the heap holds only what the host keeps. */
class NothingStored implements SnapshotStore<CounterState> {
  async loadMany() {
    return new Map();
  }
  statement(): SnapshotStatement {
    throw new Error('writes go to the sink');
  }
}

class CountingSink implements WriteSink {
  writes = 0;
  async submit(_write: PendingWrite): Promise<void> {
    this.writes++;
  }
}

const noDatabase: SqlExecutor = {
  query: () => Promise.reject(new Error('no database here')),
  bound: () => Promise.reject(new Error('no database here')),
  transaction: () => Promise.reject(new Error('no database here')),
  prepared: () => Promise.reject(new Error('no database here')),
};

function newHost(sink: WriteSink): ActorHost {
  const counter = new CounterActor();
  const kind: ActorKind<CounterState> = {
    kind: COUNTER_KIND,
    store: new NothingStored(),
    handle: (ctx, command) => counter.handle(ctx, command as Parameters<CounterActor['handle']>[1]),
  };
  const limits = { idleMs: 3_600_000, maxResident: 10 * RESIDENTS };
  const host = new ActorHost('bench-node', new InProcessBus(), noDatabase, sink, ActorMetrics.get(), limits);
  host.register(kind);
  host.start({ lease: (shard) => ({ shard, epoch: 1 }) });
  return host;
}

/**
 * What a node receives: both buses deliver a request parsed from JSON, so its strings are flat.
 * (Straight from randomUUID() and template literals they would be ropes several times larger.)
 */
const received = <T>(value: T): T => JSON.parse(JSON.stringify(value)) as T;

/** One persisted `add` to each of `count` actors. */
async function populate(host: ActorHost, from: number, count: number): Promise<void> {
  for (let start = from; start < from + count; start += BATCH) {
    const batch = [];
    for (let i = start; i < Math.min(start + BATCH, from + count); i++) {
      const request: ActorRequest = received({
        kind: COUNTER_KIND,
        id: actorId(i),
        command: { op: 'add', n: 1 },
        commandId: randomUUID(),
        attempt: 1,
      });
      batch.push(host.dispatch(shardOf(request.id), request));
    }
    for (const response of await Promise.all(batch)) {
      if (!('ok' in response) || !response.ok) throw new Error(`Dispatch failed: ${JSON.stringify(response)}`);
    }
  }
}

async function settledHeap(): Promise<number> {
  if (!global.gc) throw new Error('Run with node --expose-gc');
  for (let i = 0; i < 4; i++) {
    global.gc();
    await new Promise((resolve) => setImmediate(resolve));
  }
  return process.memoryUsage().heapUsed;
}

async function run(): Promise<Measured> {
  // Baseline: the same number of plain {id, value} objects in a Map.
  const baselineBefore = await settledHeap();
  let plain: Map<string, { id: string; value: number }> | undefined = new Map();
  for (let i = 0; i < RESIDENTS; i++) {
    const entry = received({ id: actorId(i), value: 1 });
    plain.set(entry.id, entry);
  }
  const baselineBytes = ((await settledHeap()) - baselineBefore) / RESIDENTS;
  if (plain.size !== RESIDENTS) throw new Error('baseline map lost entries');
  plain = undefined;

  // Warm-up on a throwaway host, so compiled code and metric children are not counted.
  const warm = newHost(new CountingSink());
  await populate(warm, 10 * RESIDENTS, 5_000);
  warm.stop();

  const sink = new CountingSink();
  const host = newHost(sink);
  const before = await settledHeap();
  const started = Date.now();
  await populate(host, 0, RESIDENTS);
  const seconds = (Date.now() - started) / 1000;
  const after = await settledHeap();
  if (host.residentCount !== RESIDENTS || sink.writes !== RESIDENTS) {
    throw new Error(`Expected ${RESIDENTS} residents and writes, got ${host.residentCount} and ${sink.writes}`);
  }
  host.stop();
  const perActor = (after - before) / RESIDENTS;
  console.log(`  ${round(perActor)} B per resident actor; plain {id, value} in a Map: ${round(baselineBytes)} B`);

  return {
    method:
      `In one process with --expose-gc: ActorHost (libs/actors/src/actor-host.ts) with an InProcessBus, a snapshot ` +
      `store that holds nothing and a write sink that only counts, hosting the counter kind of ` +
      `test/fixtures/counter.actor.ts. One persisted \`{op: 'add', n: 1}\` (with a fresh command id) is dispatched ` +
      `to each of ${RESIDENTS.toLocaleString('en-US')} actors, each request passed through JSON first as both buses ` +
      `deliver it (flat strings, as parsed from a NATS message); heapUsed is read after gc before and after, and the ` +
      `difference divided by the number of actors. Baseline: ${RESIDENTS.toLocaleString('en-US')} plain ` +
      `\`{id, value}\` objects (also parsed from JSON) in a Map keyed by the same ids, measured the same way.`,
    figures: [
      figure({
        label: 'Heap per resident actor',
        value: round(perActor),
        unit: 'B',
        baseline: { label: 'plain {id, value} in a Map', value: round(baselineBytes) },
        goal: { of: 'value', atMost: 1_024 },
      }),
    ],
    details: {
      'Resident actors': RESIDENTS,
      'Heap before, MB': round(before / 1e6, 1),
      'Heap after, MB': round(after / 1e6, 1),
      'Seconds to dispatch them (in process, no I/O)': round(seconds, 2),
    },
  };
}

export const residentMemoryBench: Benchmark = {
  name: 'actors.resident-memory',
  area: ACTORS_AREA,
  order: 3,
  title: 'Heap per resident actor',
  timeoutMs: 60_000,
  run,
};
