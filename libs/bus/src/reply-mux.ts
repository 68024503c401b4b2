import { Msg, MsgHdrs, NatsConnection, createInbox } from 'nats';

interface Waiter {
  resolve(msg: Msg): void;
  reject(error: Error): void;
  noResponders(): Error;
  timer: NodeJS.Timeout;
}

/**
 * Request-reply over one inbox subscription, as nats.js's own `request` does, without its cost:
 * nats.js builds a NatsError (stack trace included) for every request that succeeds (the `cancel()`
 * of its RequestOne), which was 30% of a client process's CPU under load, and as much again in GC.
 * Replies come to `<inbox>.<n>`; a reply with status 503 and no payload is the server's "no
 * responders" (the connection announces `no_responders`, as nats.js does by default).
 */
export class ReplyMux {
  private readonly inbox = createInbox();
  private readonly waiters = new Map<string, Waiter>();
  private next = 0;
  private subscribed = false;

  constructor(private readonly connection: NatsConnection) {}

  request(
    subject: string,
    data: Uint8Array,
    timeoutMs: number,
    errors: { timeout(): Error; noResponders(): Error },
    headers?: MsgHdrs,
  ): Promise<Msg> {
    this.subscribe();
    const token = (this.next++).toString(36);
    return new Promise<Msg>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.waiters.delete(token);
        reject(errors.timeout());
      }, timeoutMs);
      this.waiters.set(token, { resolve, reject, noResponders: () => errors.noResponders(), timer });
      try {
        this.connection.publish(subject, data, { reply: `${this.inbox}.${token}`, ...(headers && { headers }) });
      } catch (error) {
        this.settle(token)?.reject(error as Error);
      }
    });
  }

  /** Every request still waiting fails with `error` (the connection is closing). */
  close(error: Error): void {
    for (const token of [...this.waiters.keys()]) this.settle(token)?.reject(error);
  }

  private subscribe(): void {
    if (this.subscribed) return;
    this.subscribed = true;
    this.connection.subscribe(`${this.inbox}.*`, {
      callback: (err, msg) => {
        if (err) return this.close(err);
        // An answer that comes after its request timed out has no waiter: dropped.
        const waiter = this.settle(msg.subject.slice(this.inbox.length + 1));
        if (!waiter) return;
        if (msg.data.length === 0 && msg.headers?.code === 503) waiter.reject(waiter.noResponders());
        else waiter.resolve(msg);
      },
    });
  }

  private settle(token: string): Waiter | undefined {
    const waiter = this.waiters.get(token);
    if (!waiter) return undefined;
    this.waiters.delete(token);
    clearTimeout(waiter.timer);
    return waiter;
  }
}
