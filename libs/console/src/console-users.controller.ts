import { DomainError } from '@app/kernel';
import { randomBase62 } from '@app/persistence';
import { Body, Get, Param, Post, Query } from '@nestjs/common';
import { ConsoleActor, requireOperator } from './access';
import { ConsoleAudit } from './console-audit.store';
import { ConsoleController } from './console-controller';
import { Actor, FormBody, Redirect, field } from './console-request';
import { ConsoleUserAdmin } from './console-user-admin.store';
import { ConsoleUsers } from './console-users.store';
import { userPage } from './views/user.page';
import { usersPage } from './views/users.page';

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
    private readonly audit: ConsoleAudit,
  ) {}

  @Get()
  async list(@Actor() actor: ConsoleActor) {
    requireOperator(actor);
    return usersPage(actor, await this.admin.list(), await this.admin.workspaceChoices());
  }

  /** The initial password is in this answer only (a page, never a redirect with it in a URL). */
  @Post()
  async create(@Actor() actor: ConsoleActor, @Body() body: FormBody) {
    requireOperator(actor);
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
    await this.audit.record({
      workspaceId: workspaceId ?? null,
      actor: actor.user.email,
      action: 'user.created',
      target: user.email,
      detail: { operator, ...(workspaceId ? { workspaceId, role } : {}), via: 'console' },
    });
    return usersPage(actor, await this.admin.list(), await this.admin.workspaceChoices(), {
      email: user.email,
      id: user.id,
      password: given ? undefined : password,
    });
  }

  @Get(':id')
  async detail(@Actor() actor: ConsoleActor, @Param('id') id: string, @Query('notice') notice?: string) {
    requireOperator(actor);
    return userPage(
      actor,
      await this.admin.get(id),
      await this.admin.workspaceChoices(),
      notice ? NOTICES[notice] : undefined,
    );
  }

  @Post(':id/role')
  async role(@Actor() actor: ConsoleActor, @Param('id') id: string, @Body() body: FormBody) {
    requireOperator(actor);
    const operator = field(body, 'operator');
    if (operator !== 'yes' && operator !== 'no') {
      throw new DomainError('bad_request', 'Choose operator or workspace roles', { field: 'operator' });
    }
    if (id === actor.user.id && operator === 'no') {
      throw new DomainError('conflict', 'You cannot take away your own operator role: ask another operator.');
    }
    const user = await this.admin.get(id);
    await this.admin.setOperator(id, operator === 'yes');
    await this.record(actor, 'user.updated', user.email, null, { operator: operator === 'yes' });
    return new Redirect(`/console/users/${id}?notice=role`);
  }

  @Post(':id/memberships')
  async setMembership(@Actor() actor: ConsoleActor, @Param('id') id: string, @Body() body: FormBody) {
    requireOperator(actor);
    const user = await this.admin.get(id);
    const workspaceId = field(body, 'workspaceId') ?? '';
    const role = field(body, 'role') ?? '';
    await this.users.setRole(id, workspaceId, role);
    await this.record(actor, 'user.updated', user.email, workspaceId, { workspaceId, role });
    return new Redirect(`/console/users/${id}?notice=membership`);
  }

  @Post(':id/memberships/:ws/remove')
  async removeMembership(@Actor() actor: ConsoleActor, @Param('id') id: string, @Param('ws') ws: string) {
    requireOperator(actor);
    const user = await this.admin.get(id);
    await this.admin.removeMembership(id, ws);
    await this.record(actor, 'user.updated', user.email, ws, { workspaceId: ws, role: null });
    return new Redirect(`/console/users/${id}?notice=membership-removed`);
  }

  @Post(':id/disable')
  async disable(@Actor() actor: ConsoleActor, @Param('id') id: string) {
    requireOperator(actor);
    if (id === actor.user.id) throw new DomainError('conflict', 'You cannot disable yourself: ask another operator.');
    const user = await this.admin.get(id);
    const sessions = await this.admin.setDisabled(id, true);
    await this.record(actor, 'user.disabled', user.email, null, { sessions });
    return new Redirect(`/console/users/${id}?notice=disabled`);
  }

  @Post(':id/enable')
  async enable(@Actor() actor: ConsoleActor, @Param('id') id: string) {
    requireOperator(actor);
    const user = await this.admin.get(id);
    await this.admin.setDisabled(id, false);
    await this.record(actor, 'user.enabled', user.email, null, {});
    return new Redirect(`/console/users/${id}?notice=enabled`);
  }

  @Post(':id/sign-out-everywhere')
  async signOutEverywhere(@Actor() actor: ConsoleActor, @Param('id') id: string) {
    requireOperator(actor);
    const user = await this.admin.get(id);
    const sessions = await this.admin.signOutEverywhere(id);
    await this.record(actor, 'user.signed_out_everywhere', user.email, null, { sessions, by: 'operator' });
    return new Redirect(`/console/users/${id}?notice=signed-out`);
  }

  private record(actor: ConsoleActor, action: string, target: string, workspaceId: string | null, detail: object) {
    return this.audit.record({ workspaceId, actor: actor.user.email, action, target, detail: { ...detail } });
  }
}
