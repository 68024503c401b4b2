import { ExecutionContext, createParamDecorator } from '@nestjs/common';
import { DomainError } from '@app/kernel';

/** The credential kinds; all are workspace-scoped and interchangeable where their scope allows. */
type PrincipalKind = 'api_key' | 'oauth_token' | 'connect_session';

/** Who is calling: every workspace-scoped query takes `workspaceId` from here. */
export interface Principal {
  workspaceId: string;
  credentialId: string;
  kind: PrincipalKind;
  /** Scopes the credential carries (`domains:read`, ...); undefined means all of them (API keys). */
  scopes?: readonly string[];
  /** The one domain a connect-session token may touch. */
  domainId?: string;
  /** The name its owner gave the credential (an API key's), for the audit log; undefined: none, or not known here. */
  credentialName?: string;
}

export interface RequestWithPrincipal {
  principal?: Principal;
}

export const CurrentPrincipal = createParamDecorator((_: unknown, ctx: ExecutionContext): Principal => {
  const principal = ctx.switchToHttp().getRequest<RequestWithPrincipal>().principal;
  if (!principal) throw new DomainError('unauthorized', 'Missing or invalid bearer token');
  return principal;
});
