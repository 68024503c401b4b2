import { APP_CONFIG, AppConfig } from '@app/config';
import { DomainError } from '@app/kernel';
import { Inject, Injectable } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { ConsoleAudit } from '../console-audit.store';
import { ConsoleRequest } from '../console-request';
import { ConsoleSessions } from '../console-sessions.store';
import { startSession } from '../console-signin';
import { ConsoleUsers } from '../console-users.store';
import { OidcClient, SsoFailure } from './oidc-client';
import { SsoIdentity, decideSsoSignIn, subjectKey } from './sso-decision';

/** Applies the mapping rule (sso-decision.ts) to an identity the issuer vouched for, and audits it. */
@Injectable()
export class SsoSignIn {
  constructor(
    private readonly users: ConsoleUsers,
    private readonly sessions: ConsoleSessions,
    private readonly audit: ConsoleAudit,
    private readonly oidc: OidcClient,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async complete(request: ConsoleRequest, reply: FastifyReply, identity: SsoIdentity): Promise<void> {
    const key = subjectKey(identity.issuer, identity.subject);
    const { bySubject, byEmail } = await this.users.ssoCandidates(key, identity.email);
    const decision = decideSsoSignIn(identity, bySubject, byEmail, this.oidc.allowedDomains);
    const sso = { issuer: identity.issuer, subject: identity.subject };
    let userId: string;
    let email: string;
    switch (decision.kind) {
      case 'refuse':
        throw this.refusal(decision.reason, decision.message, identity);
      case 'sign_in':
        userId = decision.userId;
        email = bySubject!.email;
        break;
      case 'link':
        // Conditional on the user still being unlinked: two first sign-ins at once link one identity.
        if (!(await this.users.linkSubject(decision.userId, key))) {
          throw this.refusal(
            'linked_elsewhere',
            `The console user ${byEmail!.email} is linked to another single sign-on identity.`,
            identity,
          );
        }
        userId = decision.userId;
        email = byEmail!.email;
        await this.audit.record({
          workspaceId: null,
          actor: email,
          action: 'user.sso_linked',
          target: email,
          detail: sso,
        });
        break;
      case 'create': {
        const user = await this.users
          .create({ email: decision.email, name: decision.name, oidcSubject: key })
          .catch((error: unknown) => {
            if (error instanceof DomainError) throw this.refusal('unknown_user', error.message, identity);
            throw error;
          });
        userId = user.id;
        email = user.email;
        await this.audit.record({
          workspaceId: null,
          actor: email,
          action: 'user.created',
          target: email,
          detail: { ...sso, via: 'sso', operator: false },
        });
        break;
      }
    }
    try {
      await startSession(this.sessions, request, reply, this.config, userId);
    } catch (error) {
      // Disabled between the decision and the session: refused like any disabled user.
      if (error instanceof DomainError && error.code === 'forbidden') {
        throw this.refusal(
          'disabled',
          `The console user ${email} is disabled. Ask an operator to enable it.`,
          identity,
        );
      }
      throw error;
    }
    await this.audit.record({
      workspaceId: null,
      actor: email,
      action: 'user.signed_in',
      target: email,
      detail: { method: 'sso', ...sso },
    });
  }

  /** Refused and failed single sign-ons are audited too: who tried, from which issuer, and why. */
  async recordFailure(failure: SsoFailure, request: ConsoleRequest): Promise<void> {
    // A callback of no sign-in started here is anyone's request: logged by the page, not written to the log.
    if (failure.reason === 'state_mismatch') return;
    await this.audit.record({
      workspaceId: null,
      actor: failure.who ?? `sso:${request.ip}`,
      action: 'user.sso_refused',
      target: failure.who ?? null,
      detail: { reason: failure.reason, ...(failure.identity ?? {}) },
    });
  }

  private refusal(reason: string, message: string, identity: SsoIdentity): SsoFailure {
    const failure = new SsoFailure(403, 'No console access', message, reason);
    failure.who = identity.email?.toLowerCase() ?? identity.subject;
    failure.identity = { issuer: identity.issuer, subject: identity.subject, email: identity.email ?? null };
    return failure;
  }
}
