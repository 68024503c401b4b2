/** Runs an actor's messages one at a time, in arrival order. */
export class Mailbox {
  private tail: Promise<unknown> = Promise.resolve();
  private pending = 0;

  /** Messages queued or running. */
  get depth(): number {
    return this.pending;
  }

  run<T>(task: () => Promise<T>): Promise<T> {
    this.pending++;
    const result = this.tail.then(task);
    this.tail = result.then(
      () => this.pending--,
      () => this.pending--,
    );
    return result;
  }

  /** Resolves once everything queued so far has finished. */
  async idle(): Promise<void> {
    await this.tail;
  }
}
