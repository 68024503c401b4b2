import type { Principal } from '@app/auth';
import { CallHandler, ExecutionContext, Injectable, Logger, NestInterceptor } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { Observable, tap } from 'rxjs';
import { API_AUDITED } from './api-audit.routes';
import { ConsoleAudit } from './console-audit.store';
import { ConsoleQueries } from './console.queries';

type ApiRequest = FastifyRequest & { principal?: Principal; params: Record<string, string | undefined> };

/**
 * Records the API and admin changes API_AUDITED lists, after they succeeded, with who made them:
 * the API key (by name when it has one), the OAuth client by name, or the admin token (the admin CLI). Reads pass untouched.
 * The entry is written beside the answer, not before it: the change is already committed, so a failed
 * audit insert must not turn it into a 500 (the client would retry a write that happened), and the
 * write path does not wait for one more round trip. A lost entry is logged.
 */
@Injectable()
export class ApiAuditor implements NestInterceptor {
  private readonly logger = new Logger(ApiAuditor.name);

  constructor(
    private readonly audit: ConsoleAudit,
    private readonly queries: ConsoleQueries,
  ) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    if (context.getType() !== 'http') return next.handle();
    const request = context.switchToHttp().getRequest<ApiRequest>();
    const route = API_AUDITED[`${request.method} ${request.routeOptions?.url ?? ''}`];
    if (!route) return next.handle();
    return next.handle().pipe(
      tap((answer: unknown) => {
        const target = route.target(answer ?? {}, request.params ?? {});
        const entry = async () =>
          this.audit.record({
            workspaceId: target.workspaceId ?? request.principal?.workspaceId ?? null,
            actor: await this.actorOf(request.principal),
            action: route.action,
            target: target.id ?? null,
            detail: { ...(target.name ? { name: target.name } : {}), via: request.principal ? 'api' : 'admin' },
          });
        entry().catch((err: unknown) =>
          this.logger.warn({ err, action: route.action, target: target.id }, 'Audit entry of an API change lost'),
        );
      }),
    );
  }

  private async actorOf(principal: Principal | undefined): Promise<string> {
    if (!principal) return 'admin token';
    if (principal.kind === 'oauth_token') {
      const name = await this.queries.oauthClientName(principal.credentialId);
      return `OAuth client ${name ?? principal.credentialId}`;
    }
    if (principal.kind === 'api_key') {
      // By its name when it has one, with its id (the log's actor filter finds either).
      const name = await this.queries.apiKeyName(principal.credentialId);
      return name ? `API key ${name} (${principal.credentialId})` : `API key ${principal.credentialId}`;
    }
    return `connect link (${principal.domainId ?? principal.credentialId})`;
  }
}
