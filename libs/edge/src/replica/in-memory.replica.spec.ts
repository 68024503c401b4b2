import { ReplicaChange } from './edge-replica';
import { InMemoryReplica } from './in-memory.replica';

function watching(replica: InMemoryReplica, afterRevision?: number) {
  const seen: ReplicaChange[] = [];
  let readyAfter = -1;
  const stop = replica.watch(
    { onChange: (c) => seen.push(c), onReady: () => (readyAfter = seen.length) },
    afterRevision,
  );
  return { seen, readyAfter: () => readyAfter, stop };
}

describe('InMemoryReplica', () => {
  it('gives a watcher the current values, then ready, then each change; a resumed one only what came after', async () => {
    const replica = new InMemoryReplica();
    await replica.put('h.a', '1');
    await replica.put('h.b', '2');
    const fresh = watching(replica);
    expect(fresh.seen.map((c) => c.key)).toEqual(['h.a', 'h.b']);
    expect(fresh.readyAfter()).toBe(2);
    await replica.put('h.a', '3');
    await replica.delete('h.b');
    await replica.delete('h.missing');
    expect(fresh.seen.slice(2)).toEqual([
      { key: 'h.a', value: '3', revision: 3 },
      { key: 'h.b', revision: 4 },
    ]);
    const resumed = watching(replica, 2);
    expect(resumed.seen).toEqual([
      { key: 'h.a', value: '3', revision: 3 },
      { key: 'h.b', revision: 4 },
    ]);
    expect(watching(replica).seen.map((c) => c.key)).toEqual(['h.a']);
    fresh.stop();
    await replica.put('h.c', '5');
    expect(fresh.seen).toHaveLength(4);
    expect(await replica.keys()).toEqual(['h.a', 'h.c']);
  });

  it('is one per bus, so the writer and the edge of one process share it', () => {
    const bus = {};
    expect(InMemoryReplica.of(bus)).toBe(InMemoryReplica.of(bus));
    expect(InMemoryReplica.of({})).not.toBe(InMemoryReplica.of(bus));
  });

  it('creates a key only when it holds no value: absent or deleted', async () => {
    const replica = new InMemoryReplica();
    expect(await replica.create('m.lease', 'first')).toBe(true);
    expect(await replica.create('m.lease', 'second')).toBe(false);
    expect(await replica.get('m.lease')).toBe('first');
    await replica.delete('m.lease');
    expect(await replica.create('m.lease', 'third')).toBe(true);
    expect(await replica.get('m.lease')).toBe('third');
  });
});
