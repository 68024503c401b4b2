import { AdminOnly } from '@app/auth';
import { IsOmittable } from '@app/http';
import { DomainError } from '@app/kernel';
import { randomBase62 } from '@app/persistence';
import { Body, Controller, HttpCode, Post } from '@nestjs/common';
import { IsBoolean, IsEmail, IsIn, IsString, Length, MaxLength } from 'class-validator';
import { WORKSPACE_ROLES } from './access';
import { ConsoleAudit } from './console-audit.store';
import { ConsoleUserAdmin } from './console-user-admin.store';
import { ConsoleUsers, MIN_PASSWORD_LENGTH } from './console-users.store';

export class CreateConsoleUserDto {
  @IsEmail()
  @MaxLength(254)
  email!: string;

  @IsString()
  @Length(MIN_PASSWORD_LENGTH, 1024)
  password!: string;

  @IsOmittable()
  @IsString()
  @MaxLength(200)
  name?: string;

  @IsOmittable()
  @IsBoolean()
  operator?: boolean;

  @IsOmittable()
  @IsString()
  @MaxLength(100)
  workspaceId?: string;

  @IsOmittable()
  @IsIn(WORKSPACE_ROLES)
  role?: (typeof WORKSPACE_ROLES)[number];
}

export class SetConsolePasswordDto {
  @IsEmail()
  @MaxLength(254)
  email!: string;

  /** Omitted: a one-time password is generated and answered once. */
  @IsOmittable()
  @IsString()
  @Length(MIN_PASSWORD_LENGTH, 1024)
  password?: string;
}

/** POST /admin/console-users: what `npm run admin -- create-user` calls (ADMIN_TOKEN). */
@AdminOnly()
@Controller('admin/console-users')
export class ConsoleUsersAdminController {
  constructor(
    private readonly users: ConsoleUsers,
    private readonly audit: ConsoleAudit,
    private readonly admin: ConsoleUserAdmin,
  ) {}

  /**
   * POST /admin/console-users/password (`npm run admin -- set-password` / `reset-password`): the
   * user's new password, given or generated (answered once); every session of theirs ends.
   */
  @Post('password')
  @HttpCode(200)
  async setPassword(@Body() body: SetConsolePasswordDto) {
    const user = await this.users.findByEmail(body.email);
    if (!user) throw new DomainError('not_found', 'Console user was not found');
    const password = body.password ?? randomBase62(16);
    const sessions = await this.admin.resetPassword(user.id, password);
    await this.audit.record({
      workspaceId: null,
      actor: 'admin token',
      action: 'user.password_reset',
      target: user.email,
      detail: { sessions, via: 'admin API', generated: body.password === undefined },
    });
    return {
      user: { id: user.id, email: user.email },
      ...(body.password === undefined ? { oneTimePassword: password } : {}),
      sessionsEnded: sessions,
    };
  }

  @Post()
  async create(@Body() body: CreateConsoleUserDto) {
    if (!body.operator && !body.workspaceId) {
      throw new DomainError(
        'bad_request',
        'A console user is an operator or has a workspace: send operator or workspaceId',
        {
          field: 'workspaceId',
        },
      );
    }
    // Before the user is stored: a refused request stores nothing.
    if (body.workspaceId) await this.users.requireWorkspace(body.workspaceId);
    const user = await this.users.create(body);
    if (body.workspaceId) await this.users.setRole(user.id, body.workspaceId, body.role ?? 'member');
    await this.audit.record({
      workspaceId: body.workspaceId ?? null,
      actor: 'admin token',
      action: 'user.created',
      target: user.email,
      detail: { operator: user.operator, role: body.workspaceId ? (body.role ?? 'member') : undefined },
    });
    return {
      user: {
        ...user,
        workspaces: [...(await this.users.memberships(user.id))].map(([workspaceId, role]) => ({ workspaceId, role })),
      },
    };
  }
}
