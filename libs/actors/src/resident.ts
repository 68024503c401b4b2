import { ActorKind } from './actor.types';
import { Mailbox } from './mailbox';

/** Replies remembered per actor, so a retried command is answered without a database read. */
const RECENT_COMMANDS = 8;

/** An actor in this node's memory: its state as stored (at `version`), its mailbox, its last replies. */
export interface Resident {
  kind: ActorKind;
  id: string;
  shard: number;
  loaded: boolean;
  state: unknown;
  version: number;
  mailbox: Mailbox;
  lastActive: number;
  evicted: boolean;
  recent?: [string, unknown][];
}

export function newResident(kind: ActorKind, id: string, shard: number): Resident {
  return {
    kind,
    id,
    shard,
    loaded: false,
    state: undefined,
    version: 0,
    mailbox: new Mailbox(),
    lastActive: 0,
    evicted: false,
  };
}

/** The reply this actor gave a command lately, if it did. */
export function recentReply(actor: Resident, commandId: string): { reply: unknown } | undefined {
  const hit = actor.recent?.find(([id]) => id === commandId);
  return hit && { reply: hit[1] };
}

export function rememberReply(actor: Resident, commandId: string, reply: unknown): void {
  actor.recent ??= [];
  actor.recent.push([commandId, reply]);
  if (actor.recent.length > RECENT_COMMANDS) actor.recent.shift();
}
