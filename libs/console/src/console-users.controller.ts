import { DomainError } from '@app/kernel';
import { randomBase62 } from '@app/persistence';
import { Body, Get, Param, Post, Query } from '@nestjs/common';
import { ConsoleActor } from './access';
import { AuditNote, AuditNoteFn, Audited } from './console-audited';
import { ConsoleController } from './console-controller';
import { Actor, FormBody, Redirect, field } from './console-request';
import { ConsoleUserAdmin } from './console-user-admin.store';
import { ConsoleUsers } from './console-users.store';
import { userPage } from './views/user.page';
import { usersPage } from './views/users.page';
import { ConsoleAccess } from './console-access';

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
  async list(@Actor() actor: ConsoleActor) {
    return usersPage(actor, await this.admin.list(), await this.admin.workspaceChoices());
  }

  /** The initial password is in this answer only (a page, never a redirect with it in a URL). */
  @Audited('user.created')
  @ConsoleAccess('operator')
  @Post()
  async create(@Actor() actor: ConsoleActor, @AuditNote() note: AuditNoteFn, @Body() body: FormBody) {
    const operator = field(body, 'operator') === 'yes';
    const workspaceId = field(body, 'workspaceId') || undefined;
    const role = field(body, 'role') ?? 'member';
    if (!operator && !workspaceId) {
      throw new DomainError('bad_request', 'Make the user an operator, or choose a workspace for them.', {
        field: 'workspaceId',
      });
    }
    const given = field(body, 'password') ?? '';
    const password = given || randomBase62(16);
    const user = await this.users.create({
      email: field(body, 'email') ?? '',
      name: field(body, 'name'),
      password,
      operator,
    });
    if (workspaceId) await this.users.setRole(user.id, workspaceId, role);
    note({
      workspaceId: workspaceId ?? null,
      target: user.email,
      detail: { operator, ...(workspaceId ? { workspaceId, role } : {}), via: 'console' },
    });
    return usersPage(actor, await this.admin.list(), await this.admin.workspaceChoices(), {
      email: user.email,
      id: user.id,
      password: given ? undefined : password,
    });
  }

  @ConsoleAccess('operator')
  @Get(':id')
  async detail(@Actor() actor: ConsoleActor, @Param('id') id: string, @Query('notice') notice?: string) {
    return userPage(
      actor,
      await this.admin.get(id),
      await this.admin.workspaceChoices(),
      notice ? NOTICES[notice] : undefined,
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
