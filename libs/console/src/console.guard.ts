import { DomainError } from '@app/kernel';
import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { timingSafeEqual } from 'node:crypto';
import { ConsoleSessions } from './console-sessions.store';
import { ConsoleUsers } from './console-users.store';
import { SESSION_COOKIE, parseCookies } from './cookies';
import { CONSOLE_ANONYMOUS, ConsoleRequest, FormBody, SignInRequired, field } from './console-request';

const SAFE_METHODS = new Set(['GET', 'HEAD']);

export function sameToken(a: string | undefined, b: string): boolean {
  if (!a) return false;
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

/**
 * Console pages need a live session cookie; every state-changing request also needs the session's
 * CSRF token (form field `_csrf` or header `x-csrf-token`), so another site cannot post on the user's behalf.
 */
@Injectable()
export class ConsoleGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    private readonly sessions: ConsoleSessions,
    private readonly users: ConsoleUsers,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    if (this.reflector.getAllAndOverride<boolean>(CONSOLE_ANONYMOUS, [context.getHandler(), context.getClass()])) {
      return true;
    }
    const request = context.switchToHttp().getRequest<ConsoleRequest>();
    const token = parseCookies(request.headers.cookie as string | undefined)[SESSION_COOKIE];
    const session = token ? await this.sessions.resolve(token) : undefined;
    if (!session) throw new SignInRequired(SAFE_METHODS.has(request.method) ? request.url : '/console');
    if (!SAFE_METHODS.has(request.method)) {
      const sent = field(request.body as FormBody, '_csrf') ?? (request.headers['x-csrf-token'] as string | undefined);
      if (!sameToken(sent, session.csrfToken)) {
        throw new DomainError(
          'forbidden',
          'This form has expired or did not come from the console (CSRF check failed). Reload the page and try again.',
        );
      }
    }
    request.consoleActor = {
      user: session.user,
      memberships: await this.users.memberships(session.user.id),
      csrfToken: session.csrfToken,
      sessionHash: session.hash,
    };
    return true;
  }
}
