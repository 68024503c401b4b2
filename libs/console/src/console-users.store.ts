import { DomainError } from '@app/kernel';
import { newId } from '@app/persistence';
import { Workspace } from '@app/workspaces';
import { UniqueConstraintViolationException, raw } from '@mikro-orm/core';
import { EntityManager } from '@mikro-orm/postgresql';
import { Injectable } from '@nestjs/common';
import { hash, verify } from '@node-rs/argon2';
import { ConsoleUser, WORKSPACE_ROLES, WorkspaceRole } from './access';
import { ConsoleAccount, ConsoleMembership } from './console-account.entity';
import { SsoAccount } from './sso/sso-decision';
import { passwordProblem } from './forms/password-policy';

export interface NewConsoleUser {
  email: string;
  password?: string;
  name?: string;
  operator?: boolean;
  oidcSubject?: string;
}

export { MIN_PASSWORD_LENGTH } from './forms/password-policy';
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
// argon2id with the OWASP-recommended memory (19 MiB, 2 passes): memory-hard against GPU guessing.
const ARGON2 = { memoryCost: 19_456, timeCost: 2, parallelism: 1 };
// Verified when the email is unknown, so a wrong email costs as long as a wrong password.
let dummyHash: Promise<string> | undefined;

const toUser = (row: ConsoleAccount): ConsoleUser => ({
  id: row.id,
  email: row.email,
  name: row.name,
  operator: row.operator,
});

/** Matches the unique index on `lower(email)`, so lookups by email use it. */
const byEmail = (email: string) => ({ [raw('lower(email)')]: email.trim().toLowerCase() });

/** Console users (MikroORM entities), their argon2id passwords and their workspace roles. */
@Injectable()
export class ConsoleUsers {
  constructor(private readonly em: EntityManager) {}

  async count(): Promise<number> {
    return this.em.count(ConsoleAccount);
  }

  async create(input: NewConsoleUser): Promise<ConsoleUser> {
    const email = input.email.trim().toLowerCase();
    if (!EMAIL.test(email) || email.length > 254) {
      throw new DomainError('bad_request', 'email must be an email address', { field: 'email' });
    }
    const problem = input.password === undefined ? undefined : passwordProblem(input.password);
    if (problem) throw new DomainError('bad_request', problem, { field: 'password' });
    const passwordHash = input.password === undefined ? null : await hash(input.password, ARGON2);
    const account = new ConsoleAccount({
      id: newId('cu'),
      email,
      name: input.name?.trim() || null,
      passwordHash,
      operator: input.operator ?? false,
      oidcSubject: input.oidcSubject ?? null,
    });
    try {
      // A direct insert, outside the unit of work: a refused row must not linger for a later flush.
      await this.em.insert(account);
    } catch (error) {
      if (error instanceof UniqueConstraintViolationException) {
        throw new DomainError('conflict', `A console user with email ${email} already exists`, { field: 'email' });
      }
      throw error;
    }
    return toUser(account);
  }

  /** The user whose email and password match, or undefined; the same work either way. */
  async verifyPassword(email: string, password: string): Promise<(ConsoleUser & { disabled: boolean }) | undefined> {
    const row = await this.em.findOne(ConsoleAccount, byEmail(email));
    const stored = row?.passwordHash ?? (await (dummyHash ??= hash('not-a-password', ARGON2)));
    const ok = await verify(stored, password).catch(() => false);
    return ok && row?.passwordHash ? { ...toUser(row), disabled: row.disabledAt !== null } : undefined;
  }

  /** Whether `password` is the user's current one (a password change proves it first). */
  async isPassword(userId: string, password: string): Promise<boolean> {
    const row = await this.em.findOne(ConsoleAccount, { id: userId });
    if (!row?.passwordHash) return false;
    return verify(row.passwordHash, password).catch(() => false);
  }

  /** Stores a new password (the creation policy applies); sessions are the caller's to end. */
  async setPassword(userId: string, password: string, current?: string): Promise<void> {
    const problem = passwordProblem(password, current);
    if (problem) throw new DomainError('bad_request', problem, { field: 'password' });
    const passwordHash = await hash(password, ARGON2);
    if (!(await this.em.nativeUpdate(ConsoleAccount, { id: userId }, { passwordHash }))) {
      throw new DomainError('not_found', 'Console user was not found');
    }
  }

  /** The accounts single sign-on decides between: the one linked to the identity, the one with its email. */
  async ssoCandidates(
    subjectKey: string,
    email: string | undefined,
  ): Promise<{ bySubject?: SsoAccount; byEmail?: SsoAccount }> {
    const subjectRow = await this.em.findOne(ConsoleAccount, { oidcSubject: subjectKey });
    const emailRow = email ? await this.em.findOne(ConsoleAccount, byEmail(email)) : null;
    const view = (a: ConsoleAccount | null): SsoAccount | undefined =>
      a ? { id: a.id, email: a.email, oidcSubject: a.oidcSubject, disabled: a.disabledAt !== null } : undefined;
    return { bySubject: view(subjectRow), byEmail: view(emailRow) };
  }

  /** Links an identity to a user not linked yet; false when another request linked it first. */
  async linkSubject(userId: string, subjectKey: string): Promise<boolean> {
    try {
      return (
        (await this.em.nativeUpdate(ConsoleAccount, { id: userId, oidcSubject: null }, { oidcSubject: subjectKey })) ===
        1
      );
    } catch (error) {
      if (error instanceof UniqueConstraintViolationException) return false;
      throw error;
    }
  }

  async get(id: string): Promise<ConsoleUser | undefined> {
    const row = await this.em.findOne(ConsoleAccount, { id });
    return row ? toUser(row) : undefined;
  }

  async findByEmail(email: string): Promise<ConsoleUser | undefined> {
    const row = await this.em.findOne(ConsoleAccount, byEmail(email));
    return row ? toUser(row) : undefined;
  }

  async list(): Promise<(ConsoleUser & { workspaces: { workspaceId: string; role: WorkspaceRole }[] })[]> {
    const users = await this.em.find(ConsoleAccount, {}, { orderBy: { [raw('lower(email)')]: 'asc' } });
    const memberships = await this.em.find(ConsoleMembership, {}, { orderBy: { workspaceId: 'asc' } });
    return users.map((u) => ({
      ...toUser(u),
      workspaces: memberships
        .filter((m) => m.userId === u.id)
        .map((m) => ({ workspaceId: m.workspaceId, role: m.role })),
    }));
  }

  async memberships(userId: string): Promise<Map<string, WorkspaceRole>> {
    const rows = await this.em.find(ConsoleMembership, { userId });
    return new Map(rows.map((r) => [r.workspaceId, r.role]));
  }

  async setRole(userId: string, workspaceId: string, role: string): Promise<void> {
    if (!(WORKSPACE_ROLES as readonly string[]).includes(role)) {
      throw new DomainError('bad_request', `role must be one of ${WORKSPACE_ROLES.join(', ')}`, { field: 'role' });
    }
    await this.requireWorkspace(workspaceId);
    // insert ... on conflict (user_id, workspace_id) do update set role
    await this.em.upsert(ConsoleMembership, { userId, workspaceId, role: role as WorkspaceRole });
  }

  /** Throws 404 not_found unless the workspace exists. */
  async requireWorkspace(workspaceId: string): Promise<void> {
    if (!(await this.em.count(Workspace, { id: workspaceId }))) {
      throw new DomainError('not_found', 'Workspace was not found');
    }
  }
}
