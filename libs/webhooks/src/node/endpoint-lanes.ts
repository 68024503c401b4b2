interface Lane<T> {
  running: Set<T>;
  queue: T[];
}

/**
 * One lane per endpoint: at most `perEndpoint` attempts run at once for an endpoint, the rest wait
 * in its lane, so a slow endpoint holds only its own slots and never those of another.
 */
export class EndpointLanes<T extends { endpointId: string }> {
  private readonly lanes = new Map<string, Lane<T>>();
  private count = 0;
  private idleWaiters: (() => void)[] = [];

  constructor(
    private readonly perEndpoint: number,
    private readonly run: (item: T) => Promise<void>,
  ) {}

  /** Items running or waiting. */
  get size(): number {
    return this.count;
  }

  add(item: T): void {
    let lane = this.lanes.get(item.endpointId);
    if (!lane) this.lanes.set(item.endpointId, (lane = { running: new Set(), queue: [] }));
    lane.queue.push(item);
    this.count++;
    this.pump(item.endpointId, lane);
  }

  /** Endpoints with no room left: not worth claiming more for. */
  saturated(): string[] {
    return [...this.lanes].filter(([, l]) => l.running.size + l.queue.length >= this.perEndpoint).map(([id]) => id);
  }

  /** Everything running or waiting. */
  items(): T[] {
    return [...this.lanes.values()].flatMap((l) => [...l.running, ...l.queue]);
  }

  /** Removes and returns what has not started (shutdown). */
  takeWaiting(): T[] {
    const waiting = [...this.lanes.values()].flatMap((l) => l.queue.splice(0));
    this.count -= waiting.length;
    for (const [id, lane] of this.lanes) if (!lane.running.size) this.lanes.delete(id);
    this.notifyIfIdle();
    return waiting;
  }

  whenIdle(): Promise<void> {
    if (!this.count) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  private pump(endpointId: string, lane: Lane<T>): void {
    while (lane.running.size < this.perEndpoint && lane.queue.length) {
      const item = lane.queue.shift() as T;
      lane.running.add(item);
      void this.run(item)
        .catch(() => undefined)
        .finally(() => {
          lane.running.delete(item);
          this.count--;
          if (!lane.running.size && !lane.queue.length) this.lanes.delete(endpointId);
          else this.pump(endpointId, lane);
          this.notifyIfIdle();
        });
    }
  }

  private notifyIfIdle(): void {
    if (this.count) return;
    const waiters = this.idleWaiters.splice(0);
    waiters.forEach((resolve) => resolve());
  }
}
