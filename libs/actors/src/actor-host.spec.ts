import { Logger } from '@nestjs/common';
import { InProcessBus } from '@app/bus';
import { DomainError } from '@app/kernel';
import type { SqlExecutor } from '@app/persistence';
import { ActorHost } from './actor-host';
import {
  ActorContext,
  ActorKind,
  ActorResponse,
  Decision,
  FencedError,
  Snapshot,
  SnapshotStatement,
  SnapshotStore,
} from './actor.types';
import { ActorMetrics } from './actors.metrics';
import { PendingWrite } from './snapshot-writer';

/** Snapshots in a Map; what the host writes lands here through the sink below. */
class MemoryStore implements SnapshotStore<number> {
  readonly rows = new Map<string, Snapshot<number>>();
  /** The id lists of each load, to see activations share one. */
  readonly loads: string[][] = [];
  async loadMany(_db: SqlExecutor, ids: readonly string[]) {
    this.loads.push([...ids]);
    return new Map([...this.rows].filter(([id]) => ids.includes(id)));
  }
  statement(): SnapshotStatement {
    throw new Error('written through the sink');
  }
}

/** `byState`: a retry is answered from the state; `after`: the decision's side effect. */
type TallyCommand = { add: number; byState?: true; after?: () => void } | 'fail';

class Tally implements ActorKind<number, TallyCommand, number> {
  readonly kind = 'tally';
  readonly store = new MemoryStore();
  async handle(ctx: ActorContext<number>, command: TallyCommand): Promise<Decision<number, number>> {
    if (command === 'fail') throw new DomainError('conflict', 'no');
    const next = (ctx.state ?? 0) + command.add;
    return {
      state: next,
      events: [{ type: 'tally.added', workspaceId: 'ws', data: { next } }],
      reply: next,
      ...(command.byState && { retryAnsweredByState: true as const }),
      ...(command.after && { afterWrite: command.after }),
    };
  }
}

const noDatabase: SqlExecutor = {
  query: () => Promise.reject(new Error('no database in this test')),
  bound: () => Promise.reject(new Error('no database in this test')),
  transaction: () => Promise.reject(new Error('no database in this test')),
  prepared: () => Promise.reject(new Error('no database in this test')),
};

/** Every host a test started, stopped after it even when it failed (a running sweeper keeps Jest from exiting). */
const started: ActorHost[] = [];
afterEach(() => started.splice(0).forEach((host) => host.stop()));

function setup(limits = { idleMs: 60_000, maxResident: 1000 }, db: SqlExecutor = noDatabase) {
  let now = 1_000_000;
  const kind = new Tally();
  const writes: PendingWrite[] = [];
  const sink = {
    submit: async (write: PendingWrite) => {
      writes.push(write);
      kind.store.rows.set(write.id, { state: write.state as number, version: write.expectedVersion + 1 });
    },
  };
  const host = new ActorHost('node-a', new InProcessBus(), db, sink, ActorMetrics.get(), limits, () => now);
  host.register(kind);
  host.start({ lease: () => ({ shard: 0, epoch: 7 }) });
  started.push(host);
  const ask = (id: string, command: unknown, commandId = `${id}-${Math.random()}`, attempt = 1) =>
    host.dispatch(0, { kind: 'tally', id, command, commandId, attempt });
  return { host, kind, writes, ask, advance: (ms: number) => (now += ms), now: () => now };
}

describe('ActorHost', () => {
  it('persists state and events before replying, at the lease epoch and the next version', async () => {
    const { host, writes, ask } = setup();
    expect(await ask('a', { add: 2 })).toEqual({ ok: true, reply: 2 });
    expect(await ask('a', { add: 3 })).toEqual({ ok: true, reply: 5 });
    expect(writes.map((w) => [w.expectedVersion, w.epoch, w.state, w.events.length])).toEqual([
      [0, 7, 2, 1],
      [1, 7, 5, 1],
    ]);
    host.stop();
  });

  it('loads the snapshots of actors activating together in one statement', async () => {
    const { host, kind, ask } = setup();
    kind.store.rows.set('b', { state: 10, version: 1 });
    const replies = await Promise.all(['a', 'b', 'c'].map((id) => ask(id, { add: 1 })));
    expect(replies).toEqual([
      { ok: true, reply: 1 },
      { ok: true, reply: 11 },
      { ok: true, reply: 1 },
    ]);
    expect(kind.store.loads).toEqual([['a', 'b', 'c']]);
    host.stop();
  });

  it('reads no snapshot for an id minted for the command, except on a retry', async () => {
    // A retry looks for its command's stored reply first: none here.
    const { host, kind } = setup(undefined, { ...noDatabase, query: async () => [] });
    const send = (id: string, attempt: number) =>
      host.dispatch(0, { kind: 'tally', id, command: { add: 1 }, commandId: `${id}-create`, attempt, fresh: true });
    await expect(send('minted', 1)).resolves.toEqual({ ok: true, reply: 1 });
    // A retry may follow an attempt that wrote: it reads.
    kind.store.rows.set('retried', { state: 5, version: 1 });
    await expect(send('retried', 2)).resolves.toEqual({ ok: true, reply: 6 });
    expect(kind.store.loads).toEqual([['retried']]);
    host.stop();
  });

  it('applies a retried command once', async () => {
    const { host, writes, ask } = setup();
    await ask('a', { add: 1 }, 'cmd-1');
    expect(await ask('a', { add: 1 }, 'cmd-1', 2)).toEqual({ ok: true, reply: 1 });
    expect(writes).toHaveLength(1);
    host.stop();
  });

  it('records a command with its reply, unless its retry is answered from the state it wrote', async () => {
    const { host, writes, ask } = setup();
    await ask('a', { add: 1 }, 'cmd-1');
    await ask('a', { add: 1, byState: true }, 'cmd-2');
    expect(writes.map((w) => w.command)).toEqual([{ id: 'cmd-1', reply: 1 }, undefined]);
    host.stop();
  });

  it('runs a decision’s side effect once its write is stored, and never after a failed write', async () => {
    const { host, kind, writes, ask } = setup();
    const seen: number[] = [];
    await ask('a', { add: 1, after: () => seen.push(writes.length) });
    expect(seen).toEqual([1]);
    const failing = new ActorHost(
      'node-a',
      new InProcessBus(),
      noDatabase,
      { submit: () => Promise.reject(new Error('disk full')) },
      ActorMetrics.get(),
      { idleMs: 60_000, maxResident: 10 },
    );
    failing.register(kind);
    failing.start({ lease: () => ({ shard: 0, epoch: 7 }) });
    started.push(failing);
    const response = await failing.dispatch(0, {
      kind: 'tally',
      id: 'b',
      command: { add: 1, after: () => seen.push(-1) },
      commandId: 'cmd-b',
      attempt: 1,
    });
    expect(response).toMatchObject({ ok: false });
    expect(seen).toEqual([1]);
    host.stop();
  });

  it('answers domain errors in the reply and writes nothing', async () => {
    const { host, writes, ask } = setup();
    const response: ActorResponse = await ask('a', 'fail');
    expect(response).toEqual({ ok: false, error: { code: 'conflict', message: 'no', details: undefined } });
    expect(writes).toHaveLength(0);
    host.stop();
  });

  it('passivates idle actors and reactivates them from their snapshot', async () => {
    const { host, ask, advance } = setup({ idleMs: 1_000, maxResident: 1000 });
    await ask('a', { add: 4 });
    await ask('b', { add: 1 });
    advance(600);
    await ask('b', { add: 1 });
    advance(600);
    host.passivate();
    expect(host.residentCount).toBe(1);
    expect(await ask('a', { add: 1 })).toEqual({ ok: true, reply: 5 });
    expect(host.residentCount).toBe(2);
    host.stop();
  });

  it('caps resident actors, evicting the least recently used', async () => {
    const { host, kind, ask } = setup({ idleMs: 60_000, maxResident: 3 });
    for (const id of ['a', 'b', 'c']) await ask(id, { add: 1 });
    await ask('a', { add: 1 }); // a is now the most recently used, b the least
    await ask('d', { add: 1 }); // a fourth actor: one must go
    expect(host.residentCount).toBe(3);
    // A resident actor answers from memory; an evicted one loads its snapshot again.
    const loaded = kind.store.loads.length;
    for (const id of ['a', 'c', 'd']) await ask(id, { add: 1 });
    expect(kind.store.loads.slice(loaded)).toEqual([]);
    expect(await ask('b', { add: 1 })).toEqual({ ok: true, reply: 2 });
    expect(kind.store.loads.slice(loaded)).toEqual([['b']]);
    host.stop();
  });

  it('counts idle actors leaving memory as passivations, and actors dropped by a failed write or a moved shard as evictions by reason', async () => {
    const metrics = ActorMetrics.get();
    const count = async (name: string) =>
      Object.fromEntries(
        (await metrics[name === 'passivations' ? 'passivations' : 'evictions'].get()).values
          .filter((v) => v.labels.kind === 'tally')
          .map((v) => [(v.labels as { reason?: string }).reason ?? 'idle', v.value]),
      );
    const [passivatedBefore, evictedBefore] = [await count('passivations'), await count('evictions')];
    const { host, kind, ask, advance } = setup({ idleMs: 1_000, maxResident: 1000 });
    await ask('a', { add: 1 });
    advance(1_500);
    host.passivate();
    const fencing = new ActorHost(
      'node-a',
      new InProcessBus(),
      noDatabase,
      { submit: () => Promise.reject(new FencedError(0)) },
      metrics,
      { idleMs: 60_000, maxResident: 10 },
    );
    fencing.register(kind);
    fencing.start({ lease: () => ({ shard: 0, epoch: 7 }) });
    started.push(fencing);
    expect(
      await fencing.dispatch(0, { kind: 'tally', id: 'b', command: { add: 1 }, commandId: 'c-b', attempt: 1 }),
    ).toEqual({
      retry: 'fenced',
    });
    await ask('c', { add: 1 });
    host.drop(0);
    const delta = (after: Record<string, number>, before: Record<string, number>) =>
      Object.fromEntries(
        Object.entries(after)
          .map(([k, v]) => [k, v - (before[k] ?? 0)])
          .filter(([, v]) => v),
      );
    expect(delta(await count('passivations'), passivatedBefore)).toEqual({ idle: 1 });
    expect(delta(await count('evictions'), evictedBefore)).toEqual({ fenced: 1, shard_moved: 1 });
  });

  it('a shard handed off or dropped forgets its own residents only, and takes new ones again once it is back', async () => {
    const { host } = setup();
    host.start({ lease: (shard) => ({ shard, epoch: 7 }) });
    const send = (shard: number, id: string) =>
      host.dispatch(shard, { kind: 'tally', id, command: { add: 1 }, commandId: `${id}-${Math.random()}`, attempt: 1 });
    for (const [shard, id] of [
      [1, 'a'],
      [1, 'b'],
      [2, 'c'],
      [3, 'd'],
    ] as const)
      await send(shard, id);
    expect(host.residentCount).toBe(4);
    await host.release(1);
    expect(host.residentCount).toBe(2);
    host.drop(2);
    expect(host.residentCount).toBe(1);
    // Shard 1 comes back: its actors are new residents again, and releasing it evicts them.
    host.acquire(1);
    await send(1, 'a');
    expect(host.residentCount).toBe(2);
    await host.release(1);
    expect(host.residentCount).toBe(1);
  });

  it('refuses messages for shards it does not hold', async () => {
    const { host } = setup();
    host.start({ lease: () => undefined });
    expect(await host.dispatch(0, { kind: 'tally', id: 'a', command: { add: 1 }, commandId: 'x', attempt: 1 })).toEqual(
      {
        retry: 'not_owner',
      },
    );
    host.stop();
  });

  it('logs a command answered 2 s or more after its client sent it, so a timed-out attempt is not taken for a lost one', async () => {
    const { host, now } = setup();
    const warn = jest.spyOn(Logger.prototype, 'warn').mockImplementation(() => undefined);
    try {
      const send = (commandId: string, sentAt: number) =>
        host.dispatch(0, { kind: 'tally', id: 'a', command: { add: 1 }, commandId, attempt: 1, sentAt });
      await send('on-time', now() - 1_999);
      await send('late', now() - 6_000);
      expect(warn.mock.calls).toEqual([
        [expect.objectContaining({ commandId: 'late', sinceSentMs: 6_000, workMs: 0 }), 'Actor command answered late'],
      ]);
    } finally {
      warn.mockRestore();
      host.stop();
    }
  });
});
