import { AdminOnly } from '@app/auth';
import { IsOmittable } from '@app/http';
import { DomainError } from '@app/kernel';
import { Body, Controller, Post } from '@nestjs/common';
import { IsBoolean, IsEmail, IsIn, IsString, Length, MaxLength } from 'class-validator';
import { WORKSPACE_ROLES } from './access';
import { ConsoleAudit } from './console-audit.store';
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

/** POST /admin/console-users: what `npm run admin -- create-user` calls (ADMIN_TOKEN). */
@AdminOnly()
@Controller('admin/console-users')
export class ConsoleUsersAdminController {
  constructor(
    private readonly users: ConsoleUsers,
    private readonly audit: ConsoleAudit,
  ) {}

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
