import { DomainError } from '@app/kernel';
import { CanActivate, ExecutionContext, Injectable, Logger } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { timingSafeEqual } from 'node:crypto';
import { ConsoleAccessLevel, requireAccess, undeclaredAccess } from './access';
import { CONSOLE_ACCESS } from './console-access';
import { ConsoleSessions } from './console-sessions.store';
import { ConsoleUsers } from './console-users.store';
import { ConsoleWorkspaces } from './console-workspaces.service';
import { ConsoleFlashes } from './console-flashes.store';
import { returnAfterPost } from './safe-next';
import { SESSION_COOKIE, parseCookies } from './cookies';
import { ConsoleRequest, FormBody, SignInRequired, field } from './console-request';

const SAFE_METHODS = new Set(['GET', 'HEAD']);

export function sameToken(a: string | undefined, b: string): boolean {
  if (!a) return false;
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

/**
 * The only way into a console route: the route's declared `@ConsoleAccess` level (none declared: refused),
 * a live session cookie, and on every state-changing request the session's CSRF token (form field
 * `_csrf` or header `x-csrf-token`), so another site cannot post on the user's behalf.
 */
@Injectable()
export class ConsoleGuard implements CanActivate {
  private readonly logger = new Logger(ConsoleGuard.name);

  constructor(
    private readonly reflector: Reflector,
    private readonly sessions: ConsoleSessions,
    private readonly users: ConsoleUsers,
    private readonly workspaces: ConsoleWorkspaces,
    private readonly flashes: ConsoleFlashes,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const level = this.reflector.getAllAndOverride<ConsoleAccessLevel | undefined>(CONSOLE_ACCESS, [
      context.getHandler(),
      context.getClass(),
    ]);
    const request = context.switchToHttp().getRequest<ConsoleRequest>();
    if (!level) {
      // A programming error, refused before anything else: a forgotten declaration must not open a page.
      this.logger.error({ url: request.url }, 'Console route without @ConsoleAccess refused');
      throw undeclaredAccess();
    }
    if (level === 'anonymous') return true;
    const token = parseCookies(request.headers.cookie as string | undefined)[SESSION_COOKIE];
    const session = token ? await this.sessions.resolve(token) : undefined;
    if (!session) {
      // A form posted after the session ended returns to the page it was posted from (its Referer).
      const safe = SAFE_METHODS.has(request.method);
      if (safe) throw new SignInRequired(request.url, token ? 'session-ended' : undefined);
      throw new SignInRequired(returnAfterPost(request.headers.referer as string | undefined), 'form-not-saved');
    }
    if (!SAFE_METHODS.has(request.method)) {
      const sent = field(request.body as FormBody, '_csrf') ?? (request.headers['x-csrf-token'] as string | undefined);
      if (!sameToken(sent, session.csrfToken)) {
        throw new DomainError(
          'forbidden',
          'This form has expired or did not come from the console (CSRF check failed). Reload the page and try again.',
        );
      }
    }
    const actor = {
      user: session.user,
      memberships: await this.users.memberships(session.user.id),
      csrfToken: session.csrfToken,
      sessionHash: session.hash,
    };
    request.consoleActor = actor;
    const ws = level === 'read' || level === 'write' ? request.params?.ws : undefined;
    requireAccess(level, actor, ws);
    if (ws) request.consoleWorkspace = await this.workspaces.context(actor, ws);
    // A create-once page's secret, taken as it is shown: a reload finds it gone.
    const shown = SAFE_METHODS.has(request.method) ? request.query?.shown : undefined;
    if (typeof shown === 'string') request.consoleFlash = await this.flashes.take(session.hash, shown);
    return true;
  }
}
