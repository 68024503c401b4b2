import { ExecutionContext, SetMetadata, createParamDecorator } from '@nestjs/common';
import { ConsoleAccessLevel } from './access';
import type { ConsoleRequest } from './console-request';
import type { WorkspaceContext } from './views/layout';

export const CONSOLE_ACCESS = 'console:access';

/**
 * Who may use a console route; ConsoleGuard reads it and refuses any route without it (default deny).
 * `read` and `write` are about the route's `:ws` workspace, which the guard then loads for `@Workspace()`.
 */
export const ConsoleAccess = (level: ConsoleAccessLevel) => SetMetadata(CONSOLE_ACCESS, level);

/** Console routes that need no session (sign-in, first-operator setup, single sign-on, assets). */
export const ConsoleAnonymous = () => ConsoleAccess('anonymous');

/** The route's workspace as page context (set by ConsoleGuard for `read` and `write` routes). */
export const Workspace = createParamDecorator(
  (_: unknown, ctx: ExecutionContext): WorkspaceContext =>
    ctx.switchToHttp().getRequest<ConsoleRequest>().consoleWorkspace!,
);
