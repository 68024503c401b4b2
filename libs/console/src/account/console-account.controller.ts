import { statusOf } from '@app/http';
import { DomainError } from '@app/kernel';
import { Body, Get, Post, Query } from '@nestjs/common';
import { ConsoleActor } from '../access';
import { ConsoleAccess } from '../console-access';
import { AuditNote, AuditNoteFn, Audited } from '../console-audited';
import { ConsoleController } from '../console-controller';
import { Actor, FormBody, PageWithStatus, Redirect, field } from '../console-request';
import { ConsoleSessions } from '../console-sessions.store';
import { ConsoleUsers } from '../console-users.store';
import { formProblems, isFormProblem } from '../forms/form-problems';
import { accountPage } from '../views/account.page';

const NOTICES: Record<string, string> = {
  'password-changed': 'Your password is changed. Your other browsers are signed out.',
};

/** The signed-in user's own account: their password (the current one first). */
@ConsoleController('console/account')
export class ConsoleAccountController {
  constructor(
    private readonly users: ConsoleUsers,
    private readonly sessions: ConsoleSessions,
  ) {}

  @ConsoleAccess('signed-in')
  @Get()
  show(@Actor() actor: ConsoleActor, @Query('notice') notice?: string) {
    return accountPage(actor, notice ? NOTICES[notice] : undefined);
  }

  @Audited('user.password_changed')
  @ConsoleAccess('signed-in')
  @Post('password')
  async changePassword(@Actor() actor: ConsoleActor, @AuditNote() note: AuditNoteFn, @Body() body: FormBody) {
    const current = field(body, 'currentPassword') ?? '';
    const password = field(body, 'password') ?? '';
    try {
      if (!(await this.users.isPassword(actor.user.id, current))) {
        throw new DomainError('bad_request', 'That is not your current password.', { field: 'currentPassword' });
      }
      await this.users.setPassword(actor.user.id, password, current);
    } catch (error) {
      if (!isFormProblem(error)) throw error;
      const page = accountPage(actor, undefined, formProblems(error, ['currentPassword', 'password']));
      return new PageWithStatus(statusOf(error.code), page);
    }
    const sessions = await this.sessions.closeOthers(actor.user.id, actor.sessionHash);
    note({ workspaceId: null, target: actor.user.email, detail: { otherSessions: sessions, by: 'self' } });
    return new Redirect('/console/account?notice=password-changed');
  }
}
