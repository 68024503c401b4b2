import { DomainError } from '@app/http';
import { MikroSqlExecutor, newId } from '@app/persistence';
import { Injectable } from '@nestjs/common';
import { hash, verify } from '@node-rs/argon2';
import { ConsoleUser, WORKSPACE_ROLES, WorkspaceRole } from './access';

interface UserRow {
  id: string;
  email: string;
  name: string | null;
  operator: boolean;
  password_hash: string | null;
}

export interface NewConsoleUser {
  email: string;
  password?: string;
  name?: string;
  operator?: boolean;
  oidcSubject?: string;
}

export const MIN_PASSWORD_LENGTH = 10;
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
// argon2id with the OWASP-recommended memory (19 MiB, 2 passes): memory-hard against GPU guessing.
const ARGON2 = { memoryCost: 19_456, timeCost: 2, parallelism: 1 };
// Verified when the email is unknown, so a wrong email costs as long as a wrong password.
let dummyHash: Promise<string> | undefined;

const toUser = (row: UserRow): ConsoleUser => ({
  id: row.id,
  email: row.email,
  name: row.name,
  operator: row.operator,
});

/** Console users, their argon2id passwords and their workspace roles. */
@Injectable()
export class ConsoleUsers {
  constructor(private readonly db: MikroSqlExecutor) {}

  async count(): Promise<number> {
    const [row] = await this.db.query<{ n: string }>('select count(*) as n from console_users');
    return Number(row?.n ?? 0);
  }

  async create(input: NewConsoleUser): Promise<ConsoleUser> {
    const email = input.email.trim().toLowerCase();
    if (!EMAIL.test(email) || email.length > 254) {
      throw new DomainError('bad_request', 'email must be an email address', { field: 'email' });
    }
    if (input.password !== undefined && input.password.length < MIN_PASSWORD_LENGTH) {
      throw new DomainError('bad_request', `password must be at least ${MIN_PASSWORD_LENGTH} characters`, {
        field: 'password',
      });
    }
    const passwordHash = input.password === undefined ? null : await hash(input.password, ARGON2);
    const rows = await this.db.query<UserRow>(
      `insert into console_users (id, email, name, password_hash, operator, oidc_subject) values (?, ?, ?, ?, ?, ?)
       on conflict do nothing returning id, email, name, operator, password_hash`,
      [
        newId('cu'),
        email,
        input.name?.trim() || null,
        passwordHash,
        input.operator ?? false,
        input.oidcSubject ?? null,
      ],
    );
    if (!rows[0]) throw new DomainError('conflict', `A console user with email ${email} already exists`);
    return toUser(rows[0]);
  }

  /** The user whose email and password match, or undefined; the same work either way. */
  async verifyPassword(email: string, password: string): Promise<ConsoleUser | undefined> {
    const rows = await this.db.query<UserRow>('select * from console_users where lower(email) = ?', [
      email.trim().toLowerCase(),
    ]);
    const row = rows[0];
    const stored = row?.password_hash ?? (await (dummyHash ??= hash('not-a-password', ARGON2)));
    const ok = await verify(stored, password).catch(() => false);
    return ok && row?.password_hash ? toUser(row) : undefined;
  }

  async get(id: string): Promise<ConsoleUser | undefined> {
    const rows = await this.db.query<UserRow>('select * from console_users where id = ?', [id]);
    return rows[0] ? toUser(rows[0]) : undefined;
  }

  async findByEmail(email: string): Promise<ConsoleUser | undefined> {
    const rows = await this.db.query<UserRow>('select * from console_users where lower(email) = ?', [
      email.trim().toLowerCase(),
    ]);
    return rows[0] ? toUser(rows[0]) : undefined;
  }

  async list(): Promise<(ConsoleUser & { workspaces: { workspaceId: string; role: WorkspaceRole }[] })[]> {
    const users = await this.db.query<UserRow>('select * from console_users order by lower(email)');
    const memberships = await this.db.query<{ user_id: string; workspace_id: string; role: WorkspaceRole }>(
      'select user_id, workspace_id, role from console_memberships order by workspace_id',
    );
    return users.map((u) => ({
      ...toUser(u),
      workspaces: memberships
        .filter((m) => m.user_id === u.id)
        .map((m) => ({ workspaceId: m.workspace_id, role: m.role })),
    }));
  }

  async memberships(userId: string): Promise<Map<string, WorkspaceRole>> {
    const rows = await this.db.query<{ workspace_id: string; role: WorkspaceRole }>(
      'select workspace_id, role from console_memberships where user_id = ?',
      [userId],
    );
    return new Map(rows.map((r) => [r.workspace_id, r.role]));
  }

  async setRole(userId: string, workspaceId: string, role: string): Promise<void> {
    if (!(WORKSPACE_ROLES as readonly string[]).includes(role)) {
      throw new DomainError('bad_request', `role must be one of ${WORKSPACE_ROLES.join(', ')}`, { field: 'role' });
    }
    const exists = await this.db.query('select 1 from workspaces where id = ?', [workspaceId]);
    if (!exists.length) throw new DomainError('not_found', 'Workspace was not found');
    await this.db.query(
      `insert into console_memberships (user_id, workspace_id, role) values (?, ?, ?)
       on conflict (user_id, workspace_id) do update set role = excluded.role`,
      [userId, workspaceId, role],
    );
  }
}
