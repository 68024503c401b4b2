/** Most items one batched statement writes. */
const MAX_BATCH = 500;

interface Waiting<T> {
  item: T;
  settle: (error?: Error) => void;
}

/**
 * Group commit of independent inserts: the first item is written at once, and the items submitted
 * while a write runs go together in the next one, so under load many callers share a round trip and
 * a statement (mostly syscalls and parsing) instead of paying one each. Each caller learns how its
 * own batch ended: a failed write fails exactly the items it carried.
 */
export class BatchedWrites<T> {
  private queue: Waiting<T>[] = [];
  private draining = false;

  constructor(private readonly writeAll: (items: T[]) => Promise<void>) {}

  submit(item: T): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      this.queue.push({ item, settle: (error) => (error === undefined ? resolve() : reject(error)) });
      if (!this.draining) void this.drain();
    });
  }

  private async drain(): Promise<void> {
    this.draining = true;
    try {
      while (this.queue.length) {
        const batch = this.queue.splice(0, MAX_BATCH);
        const error = await this.writeAll(batch.map((w) => w.item)).then(
          () => undefined,
          (failure: unknown) => (failure instanceof Error ? failure : new Error(String(failure))),
        );
        for (const waiting of batch) waiting.settle(error);
      }
    } finally {
      // Synchronously after the last look at the queue: a submit from now on starts a new drain.
      this.draining = false;
    }
  }
}
