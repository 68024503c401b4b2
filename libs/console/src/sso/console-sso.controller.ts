import { APP_CONFIG, AppConfig } from '@app/config';
import { SecretBox } from '@app/crypto';
import { Get, Inject, Query, Req, Res } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { ConsoleController } from '../console-controller';
import { ConsoleAnonymous } from '../console-access';
import { ConsoleRequest, Redirect } from '../console-request';
import { consoleCookieSecure } from '../console-signin';
import { parseCookies, serializeCookie } from '../cookies';
import { safeNext } from '../safe-next';
import { ssoErrorPage } from '../views/sso.page';
import { OidcClient, SsoFailure } from './oidc-client';
import { SsoSignIn } from './sso-signin.service';
import { SSO_COOKIE, SSO_FLOW_SECONDS, openPending, sealPending } from './sso-flow-cookie';

/** Single sign-on: /console/sso/start sends the browser to the issuer, /console/sso/callback brings it back. */
@ConsoleController('console/sso')
export class ConsoleSsoController {
  constructor(
    private readonly oidc: OidcClient,
    private readonly signIn: SsoSignIn,
    private readonly box: SecretBox,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  @ConsoleAnonymous()
  @Get('start')
  async start(
    @Req() request: ConsoleRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
    @Query('next') next?: string,
  ) {
    try {
      const origin = this.config.publicBaseUrl ?? `${request.protocol}://${String(request.headers.host)}`;
      const { url, pending } = await this.oidc.start(this.oidc.redirectUri(origin), safeNext(next));
      this.flowCookie(request, reply, sealPending(this.box, pending, Date.now()), SSO_FLOW_SECONDS);
      return new Redirect(url);
    } catch (error) {
      return this.failed(error, reply);
    }
  }

  @ConsoleAnonymous()
  @Get('callback')
  async callback(@Req() request: ConsoleRequest, @Res({ passthrough: true }) reply: FastifyReply) {
    // The flow cookie serves one callback, whatever its outcome.
    const pending = openPending(
      this.box,
      parseCookies(request.headers.cookie as string | undefined)[SSO_COOKIE],
      Date.now(),
    );
    this.flowCookie(request, reply, '', 0);
    try {
      const search = request.url.includes('?') ? request.url.slice(request.url.indexOf('?')) : '';
      if (!pending || new URLSearchParams(search).get('state') !== pending.state) {
        throw new SsoFailure(
          400,
          'This sign-in cannot be completed',
          'The answer of the sign-in service does not belong to a sign-in started in this browser (its state is missing, expired or altered). Start the sign-in again.',
          'state_mismatch',
        );
      }
      await this.signIn.complete(request, reply, await this.oidc.finish(search, pending));
      // Checked when the flow started; again here, as the cookie outlives any change to the rule.
      return new Redirect(safeNext(pending.next));
    } catch (error) {
      if (error instanceof SsoFailure) await this.signIn.recordFailure(error, request);
      return this.failed(error, reply);
    }
  }

  private flowCookie(request: ConsoleRequest, reply: FastifyReply, value: string, maxAge: number): void {
    void reply.header(
      'set-cookie',
      serializeCookie(SSO_COOKIE, value, { secure: consoleCookieSecure(request, this.config), maxAge }),
    );
  }

  /** SSO failures are pages with a way back to sign-in; anything else goes to the console's error filter. */
  private failed(error: unknown, reply: FastifyReply) {
    if (!(error instanceof SsoFailure)) throw error;
    void reply.status(error.status);
    return ssoErrorPage({ title: error.title, message: error.message, status: error.status, ssoName: this.oidc.name });
  }
}
