import { BatchedWrites } from './batched-writes';

/** A write that waits until the test lets it finish, recording each batch it was handed. */
function gatedWriter() {
  const batches: number[][] = [];
  const gates: { open: () => void; fail: (error: Error) => void }[] = [];
  const writeAll = (items: number[]) =>
    new Promise<void>((resolve, reject) => {
      batches.push(items);
      gates.push({ open: resolve, fail: reject });
    });
  return { batches, gates, writeAll };
}

const tick = () => new Promise((resolve) => setImmediate(resolve));

describe('BatchedWrites', () => {
  it('writes the first item at once and the items submitted meanwhile together in the next write', async () => {
    const { batches, gates, writeAll } = gatedWriter();
    const writes = new BatchedWrites(writeAll);
    const first = writes.submit(1);
    const rest = [writes.submit(2), writes.submit(3), writes.submit(4)];
    expect(batches).toEqual([[1]]);
    gates[0].open();
    await first;
    await tick();
    expect(batches).toEqual([[1], [2, 3, 4]]);
    gates[1].open();
    await Promise.all(rest);
  });

  it('fails exactly the items of a failed write, and goes on with the next batch', async () => {
    const { batches, gates, writeAll } = gatedWriter();
    const writes = new BatchedWrites(writeAll);
    const first = writes.submit(1);
    const second = writes.submit(2);
    gates[0].fail(new Error('connection lost'));
    await expect(first).rejects.toThrow('connection lost');
    await tick();
    expect(batches).toEqual([[1], [2]]);
    gates[1].open();
    await expect(second).resolves.toBeUndefined();
  });

  it('starts a new write for an item submitted after everything was written', async () => {
    const { batches, gates, writeAll } = gatedWriter();
    const writes = new BatchedWrites(writeAll);
    const first = writes.submit(1);
    gates[0].open();
    await first;
    await tick();
    const later = writes.submit(2);
    expect(batches).toEqual([[1], [2]]);
    gates[1].open();
    await later;
  });
});
