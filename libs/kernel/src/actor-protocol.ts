// What actors say, as types: pure models declare their protocols and decisions with these, and the
// actor runtime (libs/actors) carries them. Nothing here knows about NATS, shards or snapshots.

/** An event an actor emits; written to the outbox in the same transaction as its state. */
export interface OutboxEvent {
  type: string;
  workspaceId: string;
  data: Record<string, unknown>;
}

/** What a handler decided: the new state and events (both persisted before the reply), and the reply. */
export interface Decision<S, R> {
  state?: S;
  events?: OutboxEvent[];
  reply: R;
  /** Runs once the state and events are stored (never after a write that failed): side effects go here. */
  afterWrite?: () => void;
  /**
   * A retry of this command is answered from the state it wrote (a create's retry finds its actor
   * and answers it as it is), so no command record is written beside it.
   */
  retryAnsweredByState?: true;
}

/**
 * What one kind of actor understands, declared once: each command `type` names the command's shape
 * and the reply it gets. The client's `ask` and the actor's handlers are both checked against it.
 * `M` is F-bounded so that the key and the command's `type` cannot disagree.
 */
export type ProtocolMap<M> = { [K in keyof M]: { command: { type: K }; reply: unknown } };

export type CommandOf<M extends ProtocolMap<M>, K extends keyof M = keyof M> = M[K]['command'];
export type ReplyOf<M extends ProtocolMap<M>, K extends keyof M = keyof M> = M[K]['reply'];

/** A kind's name with its protocol attached as a type only: what travels is still plain JSON. */
export interface ActorProtocol<M extends ProtocolMap<M>> {
  readonly kind: string;
  /** Never set: carries `M` so that `ask(protocol, ...)` infers replies. */
  readonly commands?: M;
}

export function defineProtocol<M extends ProtocolMap<M>>(kind: string): ActorProtocol<M> {
  return { kind };
}
