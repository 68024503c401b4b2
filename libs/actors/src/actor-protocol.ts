import type { ActorProtocol, CommandOf, Decision, ProtocolMap, ReplyOf } from '@app/kernel';
import type { ActorContext, ActorKind } from './actor.types';

// The protocol vocabulary itself is the kernel's (pure models declare their protocols with it).
export type { ActorProtocol, CommandOf, ProtocolMap, ReplyOf };

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
