import { DomainError } from '@app/kernel';
import { randomBase62 } from '@app/persistence';
import { Body, Get, Param, Post, Query } from '@nestjs/common';
import { ConsoleActor } from './access';
import { AuditNote, AuditNoteFn, Audited } from './console-audited';
import { ConsoleController } from './console-controller';
import { Actor, FormBody, PageWithStatus, Redirect, ShowOnce, ShownOnce, field } from './console-request';
import type { Flash } from './console-flashes.store';
import { formProblems, orFormProblem } from './forms/form-problems';
import { statusOf } from '@app/http';
import { ConsoleUserAdmin } from './console-user-admin.store';
import { ConsoleUsers } from './console-users.store';
import { userPage } from './views/user.page';
import { NewUserForm, usersPage } from './views/users.page';
import { ConsoleAccess } from './console-access';

const PAGE_SIZE = 25;
const NEW_USER_FIELDS = ['email', 'password', 'workspaceId', 'role'] as const;
type CreatedUser = { email: string; id: string; password?: string };

const NOTICES: Record<string, string> = {
  role: 'The role is changed.',
  membership: 'The workspace membership is saved.',
  'membership-removed': 'The user is no longer in that workspace.',
  disabled: 'The user is disabled and signed out everywhere.',
  enabled: 'The user is enabled and can sign in again.',
  'signed-out': 'The user is signed out on every browser.',
};

/** Console users, for operators only: create, role and workspaces, disable and enable, sign out everywhere. */
@ConsoleController('console/users')
export class ConsoleUsersController {
  constructor(
    private readonly users: ConsoleUsers,
    private readonly admin: ConsoleUserAdmin,
  ) {}

  @ConsoleAccess('operator')
  @Get()
  async list(@Actor() actor: ConsoleActor, @Query('after') after?: string, @ShownOnce() flash?: Flash) {
    const created =
      flash?.kind === 'password'
        ? { email: flash.email, id: flash.userId, password: flash.password || undefined }
        : undefined;
    return this.listPage(actor, after, created);
  }

  private async listPage(actor: ConsoleActor, after?: string, created?: CreatedUser, form?: NewUserForm) {
    const { users, next } = await this.admin.page(after?.slice(0, 254), PAGE_SIZE);
    const list = {
      users,
      next: next ? `/console/users?after=${encodeURIComponent(next)}` : undefined,
      first: after ? '/console/users' : undefined,
    };
    return usersPage(actor, list, await this.admin.workspaceChoices(), created, form);
  }

  /** Post, redirect, show once: a generated initial password is held for the next page only (ConsoleFlashes). */
  @Audited('user.created')
  @ConsoleAccess('operator')
  @Post()
  async create(@Actor() actor: ConsoleActor, @AuditNote() note: AuditNoteFn, @Body() body: FormBody) {
    const typed = {
      email: field(body, 'email') ?? '',
      name: field(body, 'name') ?? '',
      workspaceId: field(body, 'workspaceId') ?? '',
      role: field(body, 'role') ?? 'member',
      operator: field(body, 'operator') === 'yes',
    };
    const given = field(body, 'password') ?? '';
    const password = given || randomBase62(16);
    const user = await orFormProblem(this.createUser(typed, password));
    if (user instanceof DomainError) {
      // What was typed comes back (the password excepted), each problem under its field.
      const form = { ...typed, problems: formProblems(user, NEW_USER_FIELDS) };
      return new PageWithStatus(statusOf(user.code), await this.listPage(actor, undefined, undefined, form));
    }
    note({
      workspaceId: typed.workspaceId || null,
      target: user.email,
      detail: {
        operator: typed.operator,
        ...(typed.workspaceId ? { workspaceId: typed.workspaceId, role: typed.role } : {}),
        via: 'console',
      },
    });
    const flash: Flash = {
      kind: 'password',
      userId: user.id,
      email: user.email,
      password: given ? '' : password,
      created: true,
    };
    return new ShowOnce(flash, '/console/users');
  }

  private async createUser(
    typed: { email: string; name: string; workspaceId: string; role: string; operator: boolean },
    password: string,
  ) {
    if (!typed.operator && !typed.workspaceId) {
      throw new DomainError('bad_request', 'Make the user an operator, or choose a workspace for them.', {
        field: 'workspaceId',
      });
    }
    if (typed.workspaceId) await this.users.requireWorkspace(typed.workspaceId);
    const user = await this.users.create({ email: typed.email, name: typed.name, password, operator: typed.operator });
    if (typed.workspaceId) await this.users.setRole(user.id, typed.workspaceId, typed.role);
    return user;
  }

  @ConsoleAccess('operator')
  @Get(':id')
  async detail(
    @Actor() actor: ConsoleActor,
    @Param('id') id: string,
    @Query('notice') notice?: string,
    @ShownOnce() flash?: Flash,
  ) {
    return userPage(
      actor,
      await this.admin.get(id),
      await this.admin.workspaceChoices(),
      notice ? NOTICES[notice] : undefined,
      flash?.kind === 'password' && flash.userId === id ? flash.password : undefined,
    );
  }

  /**
   * A one-time password for another user, shown once (post, redirect, show once); every session of
   * theirs ends, so whoever knew the old password is out.
   */
  @Audited('user.password_reset')
  @ConsoleAccess('operator')
  @Post(':id/reset-password')
  async resetPassword(@Actor() actor: ConsoleActor, @AuditNote() note: AuditNoteFn, @Param('id') id: string) {
    if (id === actor.user.id) {
      throw new DomainError('conflict', 'Change your own password on Your account, with your current one.');
    }
    const user = await this.admin.get(id);
    const password = randomBase62(16);
    const sessions = await this.admin.resetPassword(id, password);
    note({ workspaceId: null, target: user.email, detail: { sessions, by: 'operator' } });
    return new ShowOnce(
      { kind: 'password', userId: id, email: user.email, password, created: false },
      `/console/users/${id}`,
    );
  }

  @Audited('user.updated')
  @ConsoleAccess('operator')
  @Post(':id/role')
  async role(
    @Actor() actor: ConsoleActor,
    @AuditNote() note: AuditNoteFn,
    @Param('id') id: string,
    @Body() body: FormBody,
  ) {
    const operator = field(body, 'operator');
    if (operator !== 'yes' && operator !== 'no') {
      throw new DomainError('bad_request', 'Choose operator or workspace roles', { field: 'operator' });
    }
    if (id === actor.user.id && operator === 'no') {
      throw new DomainError('conflict', 'You cannot take away your own operator role: ask another operator.');
    }
    const user = await this.admin.get(id);
    await this.admin.setOperator(id, operator === 'yes');
    note({ workspaceId: null, target: user.email, detail: { operator: operator === 'yes' } });
    return new Redirect(`/console/users/${id}?notice=role`);
  }

  @Audited('user.updated')
  @ConsoleAccess('operator')
  @Post(':id/memberships')
  async setMembership(
    @Actor() actor: ConsoleActor,
    @AuditNote() note: AuditNoteFn,
    @Param('id') id: string,
    @Body() body: FormBody,
  ) {
    const user = await this.admin.get(id);
    const workspaceId = field(body, 'workspaceId') ?? '';
    const role = field(body, 'role') ?? '';
    await this.users.setRole(id, workspaceId, role);
    note({ workspaceId: workspaceId, target: user.email, detail: { workspaceId, role } });
    return new Redirect(`/console/users/${id}?notice=membership`);
  }

  @Audited('user.updated')
  @ConsoleAccess('operator')
  @Post(':id/memberships/:ws/remove')
  async removeMembership(
    @Actor() actor: ConsoleActor,
    @AuditNote() note: AuditNoteFn,
    @Param('id') id: string,
    @Param('ws') ws: string,
  ) {
    const user = await this.admin.get(id);
    await this.admin.removeMembership(id, ws);
    note({ workspaceId: ws, target: user.email, detail: { workspaceId: ws, role: null } });
    return new Redirect(`/console/users/${id}?notice=membership-removed`);
  }

  @Audited('user.disabled')
  @ConsoleAccess('operator')
  @Post(':id/disable')
  async disable(@Actor() actor: ConsoleActor, @AuditNote() note: AuditNoteFn, @Param('id') id: string) {
    if (id === actor.user.id) throw new DomainError('conflict', 'You cannot disable yourself: ask another operator.');
    const user = await this.admin.get(id);
    const sessions = await this.admin.setDisabled(id, true);
    note({ workspaceId: null, target: user.email, detail: { sessions } });
    return new Redirect(`/console/users/${id}?notice=disabled`);
  }

  @Audited('user.enabled')
  @ConsoleAccess('operator')
  @Post(':id/enable')
  async enable(@Actor() actor: ConsoleActor, @AuditNote() note: AuditNoteFn, @Param('id') id: string) {
    const user = await this.admin.get(id);
    await this.admin.setDisabled(id, false);
    note({ workspaceId: null, target: user.email, detail: {} });
    return new Redirect(`/console/users/${id}?notice=enabled`);
  }

  @Audited('user.signed_out_everywhere')
  @ConsoleAccess('operator')
  @Post(':id/sign-out-everywhere')
  async signOutEverywhere(@Actor() actor: ConsoleActor, @AuditNote() note: AuditNoteFn, @Param('id') id: string) {
    const user = await this.admin.get(id);
    const sessions = await this.admin.signOutEverywhere(id);
    note({ workspaceId: null, target: user.email, detail: { sessions, by: 'operator' } });
    return new Redirect(`/console/users/${id}?notice=signed-out`);
  }
}
