import { randomUUID } from 'node:crypto';
import { NatsBus } from '@app/bus';
import { eventually, TEST_NATS_URL } from '@test/support';
import { NatsKvReplica } from '../libs/edge/src/replica/nats-kv.replica';
import { ReplicaChange } from '../libs/edge/src/replica/edge-replica';

/** The edge replica's JetStream KV bucket on a real NATS server: reads, writes, deletes and a watch. */
describe('NatsKvReplica (real NATS)', () => {
  let bus: NatsBus;
  const bucket = `edge_test_${randomUUID().slice(0, 8)}`;

  beforeAll(async () => {
    bus = await NatsBus.connect([TEST_NATS_URL], 'replica-kv-test');
  });
  afterAll(async () => {
    await (await bus?.connection.jetstreamManager())?.streams.delete(`KV_${bucket}`).catch(() => undefined);
    await bus?.close();
  });

  it('reads what was written, nothing for a missing or deleted key, and a watcher sees both', async () => {
    const replica = await NatsKvReplica.open(bus, bucket, 1);
    const seen: ReplicaChange[] = [];
    const stop = replica.watch({ onChange: (change) => seen.push(change), onReady: () => undefined });
    try {
      expect(await replica.get('h.missing.example.com')).toBeUndefined();
      await replica.put('h.a.example.com', '{"v":1}');
      await replica.put('h.a.example.com', '{"v":2}');
      expect(await replica.get('h.a.example.com')).toBe('{"v":2}');
      await replica.delete('h.a.example.com');
      expect(await replica.get('h.a.example.com')).toBeUndefined();
      expect(await replica.keys()).toEqual([]);
      // The same bucket through nats.js's own KV agrees: the messages are the ones it would send.
      const kv = await bus.connection.jetstream().views.kv(bucket);
      await replica.put('h.b.example.com', 'kept');
      expect((await kv.get('h.b.example.com'))?.string()).toBe('kept');
      await kv.delete('h.b.example.com');
      expect(await replica.get('h.b.example.com')).toBeUndefined();
      const changes = await eventually(
        async () => seen.map((c) => [c.key, c.value]),
        (list) => list.length >= 5,
        { timeoutMs: 5_000, what: 'the watcher to see every change' },
      );
      expect(changes).toEqual([
        ['h.a.example.com', '{"v":1}'],
        ['h.a.example.com', '{"v":2}'],
        ['h.a.example.com', undefined],
        ['h.b.example.com', 'kept'],
        ['h.b.example.com', undefined],
      ]);
    } finally {
      stop();
    }
  });

  it('creates a key only when it holds no value, also after a delete (JetStream checks the last sequence)', async () => {
    const replica = await NatsKvReplica.open(bus, bucket, 1);
    expect(await replica.create('m.lease', 'first')).toBe(true);
    expect(await replica.create('m.lease', 'second')).toBe(false);
    expect(await replica.get('m.lease')).toBe('first');
    await replica.delete('m.lease');
    expect(await replica.create('m.lease', 'third')).toBe(true);
    expect(await replica.get('m.lease')).toBe('third');
    // Two at once: exactly one wins.
    await replica.delete('m.lease');
    const raced = await Promise.all([replica.create('m.lease', 'a'), replica.create('m.lease', 'b')]);
    expect(raced.filter(Boolean)).toHaveLength(1);
  });
});
