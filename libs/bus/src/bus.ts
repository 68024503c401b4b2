/** Called for each message on a matching subject. */
export type BusHandler = (payload: unknown, subject: string) => void | Promise<void>;

/**
 * Publish/subscribe between the processes of one deployment. NATS in a cluster, an in-process
 * implementation in `standalone` and unit tests; callers cannot tell them apart.
 * Subjects use NATS syntax: `a.b.c`, `*` matches one token, `>` the rest.
 */
export abstract class Bus {
  abstract publish(subject: string, payload: unknown): void;
  /** Returns the function that unsubscribes. */
  abstract subscribe(subject: string, handler: BusHandler): () => void;
  /** False while the transport is disconnected. */
  abstract healthy(): boolean;
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
