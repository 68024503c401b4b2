import fc from 'fast-check';
import { FairQueue } from './fair-queue';

const drain = <T>(queue: FairQueue<T>) => {
  const out: string[] = [];
  for (let e = queue.next(); e; e = queue.next()) out.push(e.key);
  return out;
};

describe('FairQueue', () => {
  it('starts a single domain of one workspace at most one item after a bulk import of another', () => {
    const queue = new FairQueue<number>();
    for (let i = 0; i < 10_000; i++) queue.enqueue('ws_bulk', `dom_bulk_${i}`, i);
    queue.enqueue('ws_small', 'dom_single', 0);
    expect(queue.positionOf('dom_single')).toBe(1);
    expect(queue.next()?.key).toBe('dom_bulk_0');
    expect(queue.next()).toEqual({ group: 'ws_small', key: 'dom_single', item: 0 });
    expect(queue.size).toBe(9_999);
  });

  it('serves each group first in, first out, and the groups in turn', () => {
    const queue = new FairQueue<string>();
    for (const [group, key] of [
      ['a', 'a1'],
      ['a', 'a2'],
      ['a', 'a3'],
      ['b', 'b1'],
      ['c', 'c1'],
      ['c', 'c2'],
    ])
      queue.enqueue(group, key, key);
    expect(drain(queue)).toEqual(['a1', 'b1', 'c1', 'a2', 'c2', 'a3']);
  });

  it('puts a group that becomes non-empty at the end of the rotation', () => {
    const queue = new FairQueue<null>();
    queue.enqueue('a', 'a1', null);
    queue.enqueue('a', 'a2', null);
    queue.enqueue('b', 'b1', null);
    expect(queue.next()?.key).toBe('a1');
    queue.enqueue('c', 'c1', null);
    expect(drain(queue)).toEqual(['b1', 'a2', 'c1']);
  });

  it('adds a key once, and removes it', () => {
    const queue = new FairQueue<number>();
    expect(queue.enqueue('a', 'd1', 1)).toBe(true);
    expect(queue.enqueue('b', 'd1', 2)).toBe(false);
    expect(queue.has('d1')).toBe(true);
    queue.enqueue('b', 'd2', 3);
    expect(queue.remove('d1')).toBe(true);
    expect(queue.remove('d1')).toBe(false);
    expect(queue.has('d1')).toBe(false);
    expect(queue.positionOf('d1')).toBeUndefined();
    expect(queue.positionOf('d2')).toBe(0);
    expect(drain(queue)).toEqual(['d2']);
    expect(queue.next()).toBeUndefined();
  });

  /** Operations over a few groups and keys, so that duplicates and removals happen often. */
  const op = fc.oneof(
    fc.record({ kind: fc.constant('enqueue' as const), group: fc.integer({ max: 4, min: 0 }), key: fc.nat(30) }),
    fc.record({ kind: fc.constant('remove' as const), key: fc.nat(30) }),
    fc.record({ kind: fc.constant('next' as const) }),
  );

  it('gives every enqueued item out exactly once, in the order positionOf foretold', () => {
    fc.assert(
      fc.property(fc.array(op, { maxLength: 80 }), (ops) => {
        const queue = new FairQueue<number>();
        const queued = new Map<string, number>(); // key -> the item its accepted enqueue carried
        const accepted: number[] = [];
        const removed: number[] = [];
        const out: number[] = [];
        ops.forEach((o, serial) => {
          const key = `k${o.kind === 'next' ? '' : o.key}`;
          if (o.kind === 'enqueue') {
            expect(queue.enqueue(`g${o.group}`, key, serial)).toBe(!queued.has(key));
            if (!queued.has(key)) {
              queued.set(key, serial);
              accepted.push(serial);
            }
          } else if (o.kind === 'remove') {
            expect(queue.remove(key)).toBe(queued.has(key));
            if (queued.has(key)) {
              removed.push(queued.get(key)!);
              queued.delete(key);
            }
          } else {
            const e = queue.next();
            expect(e === undefined).toBe(queued.size === 0);
            if (e) {
              out.push(e.item);
              queued.delete(e.key);
            }
          }
          expect(queue.size).toBe(queued.size);
        });
        const foretold = [...queued.keys()].sort((a, b) => queue.positionOf(a)! - queue.positionOf(b)!);
        expect(foretold.map((k) => queue.positionOf(k))).toEqual(foretold.map((_, i) => i));
        const rest: number[] = [];
        for (let e = queue.next(); e; e = queue.next()) rest.push(e.item);
        expect(rest).toEqual(foretold.map((k) => queued.get(k)));
        // Each accepted item came out once or was removed, and nothing else came out.
        expect([...out, ...rest, ...removed].sort((a, b) => a - b)).toEqual(accepted);
      }),
      { numRuns: 300 },
    );
  });

  it('puts an item that could not use its turn back at the head, ahead of the group served before it', () => {
    const q = new FairQueue<string>();
    for (let i = 0; i < 4; i++) q.enqueue('bulk', `b${i}`, `b${i}`);
    expect(q.next()?.key).toBe('b0');
    q.enqueue('solo', 's', 's');
    expect(q.next()?.key).toBe('b1');
    const solo = q.next()!;
    expect(solo.key).toBe('s');
    // No budget for it: its turn is not spent.
    expect(q.putBack(solo.group, solo.key, solo.item)).toBe(true);
    expect(q.positionOf('s')).toBe(0);
    expect([q.next()?.key, q.next()?.key, q.next()?.key]).toEqual(['s', 'b2', 'b3']);
    expect(q.putBack('bulk', 'b9', 'b9')).toBe(true);
    expect(q.putBack('bulk', 'b9', 'b9')).toBe(false);
    expect(q.size).toBe(1);
  });
});
