import { assignShards, member, ownerOf } from './placement';
import { SHARD_COUNT, shardOf } from './shard';

const nodes = (n: number) => Array.from({ length: n }, (_, i) => member(`node-${i}`));

describe('shardOf', () => {
  it('is stable and spreads ids over all shards', () => {
    expect(shardOf('dom_abc')).toBe(shardOf('dom_abc'));
    const counts = new Array<number>(SHARD_COUNT).fill(0);
    for (let i = 0; i < 409_600; i++) counts[shardOf(`dom_${i}`)]++;
    expect(Math.min(...counts)).toBeGreaterThan(50);
    expect(Math.max(...counts)).toBeLessThan(170);
  });
});

describe('rendezvous placement', () => {
  it.each([3, 10, 50])('balances %i nodes within 1.3x of the average', (n) => {
    const sizes = [...assignShards(nodes(n)).values()].map((s) => s.length);
    expect(sizes.reduce((a, b) => a + b, 0)).toBe(SHARD_COUNT);
    expect(Math.max(...sizes)).toBeLessThanOrEqual((1.3 * SHARD_COUNT) / n);
  });

  it('moves only the leaving node’s shards, about 1/N of them', () => {
    const before = nodes(10);
    const after = before.filter((m) => m.id !== 'node-3');
    let moved = 0;
    for (let shard = 0; shard < SHARD_COUNT; shard++) {
      const a = ownerOf(shard, before);
      const b = ownerOf(shard, after);
      if (a !== b) {
        moved++;
        expect(a).toBe('node-3');
      }
    }
    expect(moved / SHARD_COUNT).toBeGreaterThan(0.07);
    expect(moved / SHARD_COUNT).toBeLessThan(0.13);
  });

  it('gives a joining node about 1/(N+1) of the shards, taken only from others', () => {
    const before = nodes(3);
    const after = [...before, member('node-new')];
    let moved = 0;
    for (let shard = 0; shard < SHARD_COUNT; shard++) {
      const b = ownerOf(shard, after);
      if (ownerOf(shard, before) !== b) {
        moved++;
        expect(b).toBe('node-new');
      }
    }
    expect(moved / SHARD_COUNT).toBeGreaterThan(0.2);
    expect(moved / SHARD_COUNT).toBeLessThan(0.3);
  });

  it('does not depend on member order', () => {
    const list = nodes(7);
    const reversed = [...list].reverse();
    for (let shard = 0; shard < SHARD_COUNT; shard += 17) expect(ownerOf(shard, list)).toBe(ownerOf(shard, reversed));
  });

  it('has no owner without members', () => {
    expect(ownerOf(0, [])).toBeUndefined();
  });
});
