import { Entity, PrimaryKey, PrimaryKeyProp, Property } from '@mikro-orm/core';
import { WorkspaceRole } from './access';

/** A console user as stored (`console_users`): the password only as an argon2id hash. */
@Entity({ tableName: 'console_users' })
export class ConsoleAccount {
  @PrimaryKey({ type: 'text' })
  id: string;

  /** Lower-cased on the way in; unique by `lower(email)`. */
  @Property({ type: 'text' })
  email: string;

  @Property({ type: 'text', nullable: true })
  name: string | null;

  @Property({ type: 'text', nullable: true })
  passwordHash: string | null;

  @Property({ type: 'boolean' })
  operator: boolean;

  /** `<issuer>#<subject>` of the single sign-on identity linked to this user (sso/sso-decision.ts). */
  @Property({ type: 'text', nullable: true })
  oidcSubject: string | null;

  /** Set: the user cannot sign in and has no session (an operator disabled it). */
  @Property({ type: 'datetime', nullable: true })
  disabledAt: Date | null = null;

  /** Written with each new session (password or single sign-on). */
  @Property({ type: 'datetime', nullable: true })
  lastSignInAt: Date | null = null;

  @Property({ type: 'datetime' })
  createdAt: Date = new Date();

  constructor(a: Omit<ConsoleAccount, 'createdAt' | 'disabledAt' | 'lastSignInAt'>) {
    this.id = a.id;
    this.email = a.email;
    this.name = a.name;
    this.passwordHash = a.passwordHash;
    this.operator = a.operator;
    this.oidcSubject = a.oidcSubject;
  }
}

/** A console user's role in one workspace (`console_memberships`). */
@Entity({ tableName: 'console_memberships' })
export class ConsoleMembership {
  [PrimaryKeyProp]?: ['userId', 'workspaceId'];

  @PrimaryKey({ type: 'text' })
  userId: string;

  @PrimaryKey({ type: 'text' })
  workspaceId: string;

  @Property({ type: 'text' })
  role: WorkspaceRole;

  constructor(userId: string, workspaceId: string, role: WorkspaceRole) {
    this.userId = userId;
    this.workspaceId = workspaceId;
    this.role = role;
  }
}
