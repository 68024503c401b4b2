import type { Principal } from '@app/auth';
import type { ApiChanges } from '@app/http';
import { DomainError } from '@app/kernel';
import { CallHandler, ExecutionContext, Injectable, Logger, NestInterceptor } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { Observable, tap } from 'rxjs';
import { API_AUDITED, ApiAuditRoute, AuditTarget } from './api-audit.routes';
import { ConsoleAudit } from './console-audit.store';
import { ConsoleQueries } from './console.queries';

type ApiRequest = FastifyRequest & { principal?: Principal; params: Record<string, string | undefined> };

const routeOf = (request: ApiRequest): ApiAuditRoute | undefined =>
  API_AUDITED[`${request.method} ${request.routeOptions?.url ?? ''}`];
const paramsOf = (request: ApiRequest) => request.params ?? {};
const bodyOf = (request: ApiRequest) =>
  (request.body && typeof request.body === 'object' ? request.body : {}) as Record<string, unknown>;

/**
 * Records the API and admin changes API_AUDITED lists, after they succeeded (or, for a purchase, were
 * refused after writing one), with who made them:
 * the API key (by name when it has one), the OAuth client by name, or the admin token (the admin CLI). Reads pass untouched.
 * The entry is written beside the answer, not before it: the change is already committed, so a failed
 * audit insert must not turn it into a 500 (the client would retry a write that happened), and the
 * write path does not wait for one more round trip. A lost entry is logged.
 */
@Injectable()
export class ApiAuditor implements NestInterceptor, ApiChanges {
  private readonly logger = new Logger(ApiAuditor.name);

  constructor(
    private readonly audit: ConsoleAudit,
    private readonly queries: ConsoleQueries,
  ) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    if (context.getType() !== 'http') return next.handle();
    const request = context.switchToHttp().getRequest<ApiRequest>();
    const route = routeOf(request);
    if (!route) return next.handle();
    return next.handle().pipe(
      tap({
        next: (answer: unknown) => this.answeredOn(route, request, answer),
        error: (error) => this.refusedOn(route, request, error),
      }),
    );
  }

  answered(request: ApiRequest, answer: unknown): void {
    const route = routeOf(request);
    if (route) this.answeredOn(route, request, answer);
  }

  refused(request: ApiRequest, error: unknown): void {
    const route = routeOf(request);
    if (route) this.refusedOn(route, request, error);
  }

  private answeredOn(route: ApiAuditRoute, request: ApiRequest, answer: unknown): void {
    const targets = route.target(answer ?? {}, paramsOf(request), bodyOf(request));
    for (const target of Array.isArray(targets) ? targets : [targets]) this.write(request, route, target);
  }

  private refusedOn(route: ApiAuditRoute, request: ApiRequest, error: unknown): void {
    // A retry answered from its Idempotency-Key's stored response (ReplayedResponse) is no DomainError.
    if (!route.refused || !(error instanceof DomainError) || !error.details) return;
    const target = route.refused({ code: error.code, details: error.details }, paramsOf(request), bodyOf(request));
    if (target) this.write(request, route, { ...target, detail: { outcome: error.code, reason: error.message } });
  }

  private write(request: ApiRequest, route: ApiAuditRoute, target: AuditTarget): void {
    const key = request.headers['idempotency-key'];
    const entry = async () => {
      const written = {
        workspaceId: target.workspaceId ?? request.principal?.workspaceId ?? null,
        actor: await this.actorOf(request.principal),
        action: route.action,
        target: target.id ?? null,
        detail: {
          ...(target.name ? { name: target.name } : {}),
          ...target.detail,
          via: request.principal ? 'api' : 'admin',
        },
      };
      // A retry under the same Idempotency-Key that ran again (its first answer was not kept) is not a second change.
      if (typeof key === 'string' && written.workspaceId) {
        await this.audit.recordOnce({ ...written, workspaceId: written.workspaceId }, key);
      } else await this.audit.record(written);
    };
    entry().catch((err: unknown) =>
      this.logger.warn({ err, action: route.action, target: target.id }, 'Audit entry of an API change lost'),
    );
  }

  private async actorOf(principal: Principal | undefined): Promise<string> {
    if (!principal) return 'admin token';
    if (principal.kind === 'oauth_token') {
      const name = await this.queries.oauthClientName(principal.credentialId);
      return `OAuth client ${name ?? principal.credentialId}`;
    }
    if (principal.kind === 'api_key') {
      // By its name when it has one (read with the key), with its id (the log's actor filter finds either).
      const name = principal.credentialName;
      return name ? `API key ${name} (${principal.credentialId})` : `API key ${principal.credentialId}`;
    }
    return `connect link (${principal.domainId ?? principal.credentialId})`;
  }
}
