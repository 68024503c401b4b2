import { CallHandler, ExecutionContext, Injectable, NestInterceptor } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { FastifyReply } from 'fastify';
import { Observable, mergeMap } from 'rxjs';
import { AuditAction, ConsoleAudit } from './console-audit.store';
import { CONSOLE_AUDITED } from './console-audited';
import { ConsoleRequest, PageWithStatus } from './console-request';
import { ReplayRedirect } from './console-replay';

/**
 * Writes the audit entry a route declares with `@Audited`, after the handler succeeded: a thrown error,
 * a form shown again with its problem (PageWithStatus), a resent form (ReplayRedirect) or a refusal page
 * (status 400+) changed nothing.
 */
@Injectable()
export class ConsoleAuditor implements NestInterceptor {
  constructor(
    private readonly reflector: Reflector,
    private readonly audit: ConsoleAudit,
  ) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const action = this.reflector.get<AuditAction | undefined>(CONSOLE_AUDITED, context.getHandler());
    if (!action) return next.handle();
    const request = context.switchToHttp().getRequest<ConsoleRequest>();
    const reply = context.switchToHttp().getResponse<FastifyReply>();
    return next.handle().pipe(
      mergeMap(async (result: unknown) => {
        if (result instanceof PageWithStatus || result instanceof ReplayRedirect || reply.statusCode >= 400)
          return result;
        for (const note of request.auditNotes ?? [{}]) {
          const actor = note.actor ?? request.consoleActor?.user.email;
          if (!actor) continue;
          await this.audit.record({
            workspaceId: note.workspaceId !== undefined ? note.workspaceId : (request.params?.ws ?? null),
            actor,
            action,
            target: note.target !== undefined ? note.target : (request.params?.id ?? null),
            detail: note.detail,
          });
        }
        return result;
      }),
    );
  }
}
