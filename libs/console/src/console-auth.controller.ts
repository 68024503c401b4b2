import { Public } from '@app/auth';
import { APP_CONFIG, AppConfig } from '@app/config';
import { DomainError } from '@app/kernel';
import { randomBase62 } from '@app/persistence';
import {
  Body,
  Controller,
  Get,
  Header,
  Inject,
  Post,
  Query,
  Req,
  Res,
  UseFilters,
  UseGuards,
  UseInterceptors,
} from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { ConsoleActor } from './access';
import { ConsoleErrorFilter } from './console-error.filter';
import { Actor, ConsoleRequest, FormBody, Redirect, field } from './console-request';
import { ConsoleSessions } from './console-sessions.store';
import { ConsoleUsers } from './console-users.store';
import { ConsoleGuard, sameToken } from './console.guard';
import { ConsoleResponder } from './console.responder';
import { ConsoleAuditor } from './console-auditor.interceptor';
import { consoleCookieSecure, startSession } from './console-signin';
import { SIGNIN_COOKIE, SESSION_COOKIE, parseCookies, serializeCookie } from './cookies';
import { SignInThrottle } from './signin-throttle.store';
import { CONSOLE_CSS, CONSOLE_JS } from './views/assets';
import { setupPage, signInPage } from './views/signin.page';
import { bearerSafeEqual } from './console-signin';
import { OidcClient } from './sso/oidc-client';
// Only console paths are followed after sign-in: an open redirect would help phishing.
import { safeNext } from './safe-next';
import { ConsoleAccess, ConsoleAnonymous } from './console-access';
import { AuditNote, AuditNoteFn, Audited } from './console-audited';

/** Why a page sent the browser here (SignInRequired's notice). */
const SESSION_NOTICES: Record<string, string> = {
  'session-ended': 'Your session ended. Sign in again to return to the page you were on.',
  'form-not-saved':
    'Your session ended, so the form you sent was not saved. Sign in again to return to the page you were on.',
};

@Public()
@UseGuards(ConsoleGuard)
@UseFilters(ConsoleErrorFilter)
@UseInterceptors(ConsoleResponder, ConsoleAuditor)
@Controller('console')
export class ConsoleAuthController {
  constructor(
    private readonly users: ConsoleUsers,
    private readonly sessions: ConsoleSessions,
    private readonly throttle: SignInThrottle,
    private readonly oidc: OidcClient,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /** "Sign in with <name>" when single sign-on is configured, carrying the page to return to. */
  private sso(next: string) {
    const name = this.oidc.name;
    if (!name) return undefined;
    return {
      name,
      href: next === '/console' ? '/console/sso/start' : `/console/sso/start?next=${encodeURIComponent(next)}`,
    };
  }

  @ConsoleAccess('signed-in')
  @Get()
  home() {
    return new Redirect('/console/workspaces');
  }

  @ConsoleAnonymous()
  @Get('assets/console.css')
  @Header('content-type', 'text/css; charset=utf-8')
  @Header('cache-control', 'public, max-age=300')
  css() {
    return CONSOLE_CSS;
  }

  @ConsoleAnonymous()
  @Get('assets/console.js')
  @Header('content-type', 'application/javascript; charset=utf-8')
  @Header('cache-control', 'public, max-age=300')
  js() {
    return CONSOLE_JS;
  }

  /** The sign-in form carries a random token also set as a cookie (double submit): no login CSRF. */
  private formToken(request: ConsoleRequest, reply: FastifyReply): string {
    const token = randomBase62(16);
    void reply.header(
      'set-cookie',
      serializeCookie(SIGNIN_COOKIE, token, { secure: consoleCookieSecure(request, this.config), maxAge: 3600 }),
    );
    return token;
  }

  private checkFormToken(request: ConsoleRequest, body: FormBody): void {
    const cookie = parseCookies(request.headers.cookie as string | undefined)[SIGNIN_COOKIE];
    if (!cookie || !sameToken(field(body, '_signin'), cookie)) {
      throw new DomainError('forbidden', 'This sign-in form has expired. Reload the page and try again.');
    }
  }

  @ConsoleAnonymous()
  @Get('sign-in')
  async signInForm(
    @Req() request: ConsoleRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
    @Query('next') next?: string,
    @Query('notice') notice?: string,
  ) {
    return signInPage({
      formToken: this.formToken(request, reply),
      next: safeNext(next),
      sso: this.sso(safeNext(next)),
      setupAvailable: (await this.users.count()) === 0,
      notice: notice === 'signed-out' ? 'You are signed out.' : undefined,
      warning: notice ? SESSION_NOTICES[notice] : undefined,
    });
  }

  @Audited('user.signed_in')
  @ConsoleAnonymous()
  @Post('sign-in')
  async signIn(
    @AuditNote() note: AuditNoteFn,
    @Req() request: ConsoleRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
    @Body() body: FormBody,
  ) {
    this.checkFormToken(request, body);
    const email = (field(body, 'email') ?? '').trim().toLowerCase();
    const password = field(body, 'password') ?? '';
    const next = safeNext(field(body, 'next'));
    const again = (error: string, status: number) => {
      void reply.status(status);
      return signInPage({
        formToken: this.formToken(request, reply),
        next,
        email,
        error,
        sso: this.sso(next),
        setupAvailable: false,
      });
    };
    const wait = await this.throttle.retryAfter(email, request.ip);
    if (wait > 0) {
      void reply.header('retry-after', String(wait));
      return again(`Too many failed sign-ins. Try again in ${Math.ceil(wait / 60)} minutes.`, 429);
    }
    const user = email && password ? await this.users.verifyPassword(email, password) : undefined;
    if (!user) {
      await this.throttle.recordFailure(email, request.ip);
      return again('That email and password do not match a console user.', 401);
    }
    await this.throttle.clear(email);
    if (user.disabled) return again('This console user is disabled. Ask an operator to enable it.', 403);
    await startSession(this.sessions, request, reply, this.config, user.id);
    note({ workspaceId: null, actor: user.email, target: user.email, detail: { method: 'password' } });
    return new Redirect(next);
  }

  @ConsoleAnonymous()
  @Get('setup')
  async setupForm(@Req() request: ConsoleRequest, @Res({ passthrough: true }) reply: FastifyReply) {
    if ((await this.users.count()) > 0) return new Redirect('/console/sign-in');
    return setupPage({ formToken: this.formToken(request, reply) });
  }

  /** The first operator, proven by the admin token; closed as soon as any console user exists. */
  @Audited('user.created')
  @ConsoleAnonymous()
  @Post('setup')
  async setup(
    @AuditNote() note: AuditNoteFn,
    @Req() request: ConsoleRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
    @Body() body: FormBody,
  ) {
    this.checkFormToken(request, body);
    if ((await this.users.count()) > 0) {
      throw new DomainError('conflict', 'The console is already set up: sign in, or ask an operator for an account.');
    }
    const email = field(body, 'email') ?? '';
    const wait = await this.throttle.retryAfter('setup', request.ip);
    if (wait > 0)
      throw new DomainError('rate_limited', `Too many attempts. Try again in ${Math.ceil(wait / 60)} minutes.`);
    if (!this.config.adminToken || !bearerSafeEqual(field(body, 'adminToken'), this.config.adminToken)) {
      await this.throttle.recordFailure('setup', request.ip);
      void reply.status(401);
      return setupPage({ formToken: this.formToken(request, reply), email, error: 'That is not the admin token.' });
    }
    const user = await this.users.create({ email, password: field(body, 'password') ?? '', operator: true });
    note({ workspaceId: null, actor: user.email, target: user.email, detail: { operator: true, via: 'setup' } });
    await startSession(this.sessions, request, reply, this.config, user.id);
    return new Redirect('/console/workspaces');
  }

  @ConsoleAccess('signed-in')
  @Post('sign-out')
  async signOut(
    @Actor() actor: ConsoleActor,
    @Req() request: ConsoleRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ) {
    await this.sessions.close(actor.sessionHash);
    void reply.header(
      'set-cookie',
      serializeCookie(SESSION_COOKIE, '', { secure: consoleCookieSecure(request, this.config), maxAge: 0 }),
    );
    return new Redirect('/console/sign-in?notice=signed-out');
  }

  @Audited('user.signed_out_everywhere')
  @ConsoleAccess('signed-in')
  @Post('sign-out-everywhere')
  async signOutEverywhere(
    @Actor() actor: ConsoleActor,
    @AuditNote() note: AuditNoteFn,
    @Req() request: ConsoleRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ) {
    const ended = await this.sessions.closeAll(actor.user.id);
    note({ workspaceId: null, target: actor.user.email, detail: { sessions: ended } });
    void reply.header(
      'set-cookie',
      serializeCookie(SESSION_COOKIE, '', { secure: consoleCookieSecure(request, this.config), maxAge: 0 }),
    );
    return new Redirect('/console/sign-in?notice=signed-out');
  }
}
