import { EndpointLanes } from './endpoint-lanes';

interface Item {
  endpointId: string;
  n: number;
}

function deferred() {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => (resolve = r));
  return { promise, resolve };
}

describe('EndpointLanes', () => {
  it('runs at most perEndpoint per endpoint; a stuck endpoint does not hold up another', async () => {
    const started: Item[] = [];
    const gates = new Map<number, () => void>();
    const lanes = new EndpointLanes<Item>(2, (item) => {
      started.push(item);
      const gate = deferred();
      gates.set(item.n, gate.resolve);
      return item.endpointId === 'slow' ? new Promise(() => undefined) : gate.promise;
    });
    for (let n = 0; n < 5; n++) lanes.add({ endpointId: 'slow', n });
    for (let n = 10; n < 13; n++) lanes.add({ endpointId: 'fast', n });
    expect(started.map((i) => i.n)).toEqual([0, 1, 10, 11]);
    expect(lanes.size).toBe(8);
    expect(lanes.saturated().sort()).toEqual(['fast', 'slow']);
    gates.get(10)?.();
    await new Promise((r) => setImmediate(r));
    expect(started.map((i) => i.n)).toEqual([0, 1, 10, 11, 12]);
    gates.get(11)?.();
    await new Promise((r) => setImmediate(r));
    expect(lanes.saturated()).toEqual(['slow']);
    expect(lanes.size).toBe(6);
  });

  it('hands back what has not started and reports idle when all is done', async () => {
    const gate = deferred();
    const lanes = new EndpointLanes<Item>(1, () => gate.promise);
    lanes.add({ endpointId: 'a', n: 1 });
    lanes.add({ endpointId: 'a', n: 2 });
    lanes.add({ endpointId: 'b', n: 3 });
    expect(lanes.items().map((i) => i.n)).toEqual([1, 2, 3]);
    expect(lanes.takeWaiting().map((i) => i.n)).toEqual([2]);
    let idle = false;
    void lanes.whenIdle().then(() => (idle = true));
    expect(lanes.size).toBe(2);
    gate.resolve();
    await new Promise((r) => setImmediate(r));
    expect(idle).toBe(true);
    expect(lanes.size).toBe(0);
    expect(lanes.saturated()).toEqual([]);
  });

  it('survives a failing run', async () => {
    const lanes = new EndpointLanes<Item>(1, () => Promise.reject(new Error('boom')));
    lanes.add({ endpointId: 'a', n: 1 });
    lanes.add({ endpointId: 'a', n: 2 });
    await lanes.whenIdle();
    expect(lanes.size).toBe(0);
  });
});
