import { DomainError } from '@app/kernel';

export const WORKSPACE_ROLES = ['member', 'viewer'] as const;
export type WorkspaceRole = (typeof WORKSPACE_ROLES)[number];

export interface ConsoleUser {
  id: string;
  email: string;
  name: string | null;
  /** Operators see every workspace, the cluster and the users; members and viewers only their workspaces. */
  operator: boolean;
}

/** Who is signed in to the console for this request. */
export interface ConsoleActor {
  user: ConsoleUser;
  memberships: Map<string, WorkspaceRole>;
  csrfToken: string;
  sessionHash: string;
}

/** The role an actor has in a workspace: operators act as members everywhere. */
export function roleIn(actor: ConsoleActor, workspaceId: string): WorkspaceRole | undefined {
  return actor.user.operator ? 'member' : actor.memberships.get(workspaceId);
}

/** 404 rather than 403 for a workspace the actor cannot see: its existence is not disclosed. */
export function requireRead(actor: ConsoleActor, workspaceId: string): void {
  if (!roleIn(actor, workspaceId)) throw new DomainError('not_found', 'Workspace was not found');
}

export function requireWrite(actor: ConsoleActor, workspaceId: string): void {
  requireRead(actor, workspaceId);
  if (roleIn(actor, workspaceId) !== 'member') {
    throw new DomainError('forbidden', 'Your role in this workspace is viewer: it can look but not change anything');
  }
}

export function requireOperator(actor: ConsoleActor): void {
  if (!actor.user.operator) throw new DomainError('forbidden', 'Only operators can do this');
}

/**
 * What a console route needs, declared on it with `@ConsoleAccess(...)` and checked by ConsoleGuard:
 * `read`/`write` concern the route's `:ws` workspace; `signed-in` routes show only the user's own.
 */
export type ConsoleAccessLevel = 'anonymous' | 'signed-in' | 'operator' | 'read' | 'write';

/** Refuses what the level does not allow; an undeclared level (or a workspace route without `:ws`) is refused. */
export function requireAccess(level: ConsoleAccessLevel | undefined, actor: ConsoleActor, workspaceId?: string): void {
  switch (level) {
    case 'anonymous':
    case 'signed-in':
      return;
    case 'operator':
      return requireOperator(actor);
    case 'read':
    case 'write':
      if (!workspaceId) break;
      return level === 'read' ? requireRead(actor, workspaceId) : requireWrite(actor, workspaceId);
    case undefined:
      break;
  }
  throw undeclaredAccess();
}

export const undeclaredAccess = () =>
  new DomainError('forbidden', 'This console page declares no access rule, so it is refused to everyone');
