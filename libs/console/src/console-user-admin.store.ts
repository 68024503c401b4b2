import { DomainError } from '@app/kernel';
import { Workspace } from '@app/workspaces';
import { raw } from '@mikro-orm/core';
import { EntityManager } from '@mikro-orm/postgresql';
import { Injectable } from '@nestjs/common';
import { WorkspaceRole } from './access';
import { ConsoleAccount, ConsoleMembership } from './console-account.entity';
import { ConsoleSessions } from './console-sessions.store';
import { ConsoleUsers } from './console-users.store';

export interface UserRow {
  id: string;
  email: string;
  name: string | null;
  operator: boolean;
  disabled: boolean;
  ssoLinked: boolean;
  hasPassword: boolean;
  lastSignInAt: string | null;
  createdAt: string;
  workspaces: { id: string; name: string; role: WorkspaceRole }[];
}

/** Most workspaces offered in the membership picker (ordered by name). */
const PICKER_LIMIT = 1_000;

/** The operators' view of console users (MikroORM): list, roles, memberships, disable and enable. */
@Injectable()
export class ConsoleUserAdmin {
  constructor(
    private readonly em: EntityManager,
    private readonly sessions: ConsoleSessions,
    private readonly users: ConsoleUsers,
  ) {}

  /** A page of users by email (keyset: emails are unique by `lower(email)`), and the email to continue after. */
  async page(after: string | undefined, limit: number): Promise<{ users: UserRow[]; next?: string }> {
    const users = await this.em.find(
      ConsoleAccount,
      after ? { [raw('lower(email)')]: { $gt: after.toLowerCase() } } : {},
      { orderBy: { [raw('lower(email)')]: 'asc' }, limit: limit + 1 },
    );
    const more = users.length > limit;
    const shown = users.slice(0, limit);
    return { users: await this.rows(shown), next: more ? shown[shown.length - 1].email : undefined };
  }

  async get(id: string): Promise<UserRow> {
    const user = await this.em.findOne(ConsoleAccount, { id });
    if (!user) throw new DomainError('not_found', 'Console user was not found');
    return (await this.rows([user]))[0];
  }

  /** Workspaces an operator can add a user to. */
  async workspaceChoices(): Promise<{ id: string; name: string }[]> {
    const rows = await this.em.find(Workspace, {}, { orderBy: { name: 'asc', id: 'asc' }, limit: PICKER_LIMIT });
    return rows.map((w) => ({ id: w.id, name: w.name }));
  }

  async setOperator(id: string, operator: boolean): Promise<void> {
    await this.update(id, { operator });
  }

  /** Disabling ends every session of the user at once; enabling lets them sign in again. */
  async setDisabled(id: string, disabled: boolean): Promise<number> {
    await this.update(id, { disabledAt: disabled ? new Date() : null });
    return disabled ? this.sessions.closeAll(id) : 0;
  }

  /** Another person set this user's password: every session of theirs ends. */
  async resetPassword(id: string, password: string): Promise<number> {
    await this.users.setPassword(id, password);
    return this.sessions.closeAll(id);
  }

  async signOutEverywhere(id: string): Promise<number> {
    return this.sessions.closeAll(id);
  }

  async removeMembership(userId: string, workspaceId: string): Promise<void> {
    const removed = await this.em.nativeDelete(ConsoleMembership, { userId, workspaceId });
    if (!removed) throw new DomainError('not_found', 'That user is not in that workspace');
  }

  private async update(id: string, change: Partial<Pick<ConsoleAccount, 'operator' | 'disabledAt'>>): Promise<void> {
    if (!(await this.em.nativeUpdate(ConsoleAccount, { id }, change))) {
      throw new DomainError('not_found', 'Console user was not found');
    }
  }

  private async rows(users: ConsoleAccount[]): Promise<UserRow[]> {
    const ids = users.map((u) => u.id);
    const memberships = ids.length ? await this.em.find(ConsoleMembership, { userId: { $in: ids } }) : [];
    const workspaceIds = [...new Set(memberships.map((m) => m.workspaceId))];
    const names = new Map(
      (workspaceIds.length ? await this.em.find(Workspace, { id: { $in: workspaceIds } }) : []).map((w) => [
        w.id,
        w.name,
      ]),
    );
    return users.map((u) => ({
      id: u.id,
      email: u.email,
      name: u.name,
      operator: u.operator,
      disabled: u.disabledAt !== null,
      ssoLinked: u.oidcSubject !== null,
      hasPassword: u.passwordHash !== null,
      lastSignInAt: u.lastSignInAt?.toISOString() ?? null,
      createdAt: u.createdAt.toISOString(),
      workspaces: memberships
        .filter((m) => m.userId === u.id)
        .map((m) => ({ id: m.workspaceId, name: names.get(m.workspaceId) ?? m.workspaceId, role: m.role }))
        .sort((a, b) => a.name.localeCompare(b.name)),
    }));
  }
}
