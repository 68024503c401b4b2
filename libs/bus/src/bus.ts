/** Called for each message on a matching subject. */
export type BusHandler = (payload: unknown, subject: string) => void | Promise<void>;

/** Answers a request; return `NO_REPLY` to stay silent (the requester then times out). */
export type BusResponder = (payload: unknown, subject: string) => Promise<unknown>;
export const NO_REPLY = Symbol('NO_REPLY');

/** Nobody subscribes to the subject right now (e.g. a shard between two owners). */
export class NoRespondersError extends Error {
  constructor(readonly subject: string) {
    super(`No responders on ${subject}`);
    this.name = 'NoRespondersError';
  }
}

export class RequestTimeoutError extends Error {
  constructor(
    readonly subject: string,
    /** Cut short because the connection came back (the answer was likely lost in the outage). */
    readonly afterReconnect = false,
  ) {
    super(`Request on ${subject} timed out`);
    this.name = 'RequestTimeoutError';
  }
}

/**
 * Messaging between the processes of one deployment. NATS in a cluster, an in-process
 * implementation in `standalone` and unit tests; callers cannot tell them apart.
 * Subjects use NATS syntax: `a.b.c`, `*` matches one token, `>` the rest.
 */
export abstract class Bus {
  abstract publish(subject: string, payload: unknown): void;
  /** Returns the function that unsubscribes. */
  abstract subscribe(subject: string, handler: BusHandler): () => void;
  /** Request-reply with one responder; rejects with NoRespondersError or RequestTimeoutError. */
  abstract request(subject: string, payload: unknown, timeoutMs: number): Promise<unknown>;
  /** Answers requests on `subject` (wildcards allowed); returns the function that stops it. */
  abstract serve(subject: string, responder: BusResponder): () => void;
  /** Asks every responder and collects the answers that arrive within `waitMs`. */
  abstract gather(subject: string, payload: unknown, waitMs: number): Promise<unknown[]>;
  /** False while the transport is disconnected. */
  abstract healthy(): boolean;
  /** Calls `listener` with false on disconnect and true on reconnect. */
  abstract onConnectionChange(listener: (connected: boolean) => void): () => void;
  abstract close(): Promise<void>;
}

/** NATS subject matching, also used by the in-process bus. */
export function subjectMatches(pattern: string, subject: string): boolean {
  const want = pattern.split('.');
  const got = subject.split('.');
  for (let i = 0; i < want.length; i++) {
    if (want[i] === '>') return got.length > i;
    if (i >= got.length) return false;
    if (want[i] !== '*' && want[i] !== got[i]) return false;
  }
  return want.length === got.length;
}
