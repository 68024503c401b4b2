import type { ActorContext, ActorKind, Decision } from './actor.types';

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

/** An actor kind that answers exactly its protocol. */
export type ProtocolActor<S, M extends ProtocolMap<M>> = ActorKind<S, CommandOf<M>, ReplyOf<M>>;

/** One handler per command type, each checked against the reply its command promises. */
export type ProtocolHandlers<S, M extends ProtocolMap<M>, X = void> = {
  [K in keyof M]: (ctx: ActorContext<S>, command: CommandOf<M, K>, extra: X) => Promise<Decision<S, ReplyOf<M, K>>>;
};

type AnyHandler<S, M extends ProtocolMap<M>, X> = (
  ctx: ActorContext<S>,
  command: CommandOf<M>,
  extra: X,
) => Promise<Decision<S, ReplyOf<M>>>;

/** Calls the handler of `command.type`: the one place where the command's type picks its handler. */
export function dispatch<S, M extends ProtocolMap<M>, X>(
  handlers: ProtocolHandlers<S, M, X>,
  ctx: ActorContext<S>,
  command: CommandOf<M>,
  extra: X,
): Promise<Decision<S, ReplyOf<M>>> {
  const byType = handlers as unknown as Record<string, AnyHandler<S, M, X>>;
  const handler = byType[String(command.type)];
  // Only a sender outside the protocol (an older or foreign process) gets here: a bug, not a 4xx.
  if (!handler) throw new Error(`No handler for command type ${String(command.type)}`);
  return handler(ctx, command, extra);
}
