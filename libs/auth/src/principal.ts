import { ExecutionContext, createParamDecorator } from '@nestjs/common';
import { DomainError } from '@app/http';

/** Who is calling: every workspace-scoped query takes `workspaceId` from here. */
export interface Principal {
  workspaceId: string;
  credentialId: string;
  kind: 'api_key';
}

export interface RequestWithPrincipal {
  principal?: Principal;
}

export const CurrentPrincipal = createParamDecorator((_: unknown, ctx: ExecutionContext): Principal => {
  const principal = ctx.switchToHttp().getRequest<RequestWithPrincipal>().principal;
  if (!principal) throw new DomainError('unauthorized', 'Missing or invalid bearer token');
  return principal;
});
