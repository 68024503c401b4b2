import { RequestWithPrincipal } from '@app/auth';
import { ReplayedResponse, mapError } from '@app/http';
import { DomainError } from '@app/kernel';
import {
  CallHandler,
  ExecutionContext,
  HttpStatus,
  Injectable,
  NestInterceptor,
  SetMetadata,
  UseInterceptors,
  applyDecorators,
} from '@nestjs/common';
import { HTTP_CODE_METADATA } from '@nestjs/common/constants';
import { Reflector } from '@nestjs/core';
import type { FastifyRequest } from 'fastify';
import { createHash } from 'node:crypto';
import { Observable, from, lastValueFrom } from 'rxjs';
import { IdempotencyScope, IdempotencyStore } from './idempotency.store';

export const IDEMPOTENT = 'idempotent';
const KEY_PATTERN = /^[\x21-\x7e]{1,255}$/;

/**
 * Marks a POST that creates or charges: an Idempotency-Key makes its retries safe (SPEC 8). Only
 * these routes run the interceptor; the others have no interceptor chain at all.
 */
export const Idempotent = () => applyDecorators(SetMetadata(IDEMPOTENT, true), UseInterceptors(IdempotencyInterceptor));

/** Canonical JSON (sorted keys), so the same body in another key order is the same request. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : 1));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonical(v)}`).join(',')}}`;
  }
  return JSON.stringify(value ?? null);
}

/**
 * The first response to (workspace, method, path, key) is kept 24 h and replayed with
 * `idempotent-replay: true`; the work runs once. A twin still running answers 409
 * idempotency_in_progress; the key with another body 422 idempotency_key_reused. Validation
 * failures and server errors are not kept, so a corrected or later retry runs.
 */
@Injectable()
class IdempotencyInterceptor implements NestInterceptor {
  constructor(
    private readonly store: IdempotencyStore,
    private readonly reflector: Reflector,
  ) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const request = context.switchToHttp().getRequest<FastifyRequest & RequestWithPrincipal>();
    const header = request.headers['idempotency-key'];
    if (!this.reflector.get<boolean>(IDEMPOTENT, context.getHandler()) || header === undefined || !request.principal) {
      return next.handle();
    }
    return from(this.run(context, request, String(header), next));
  }

  private async run(
    context: ExecutionContext,
    request: FastifyRequest & RequestWithPrincipal,
    key: string,
    next: CallHandler,
  ) {
    if (!KEY_PATTERN.test(key)) {
      throw new DomainError('bad_request', 'Idempotency-Key must be 1-255 visible ASCII characters', {
        field: 'Idempotency-Key',
      });
    }
    const scope: IdempotencyScope = {
      workspaceId: request.principal!.workspaceId,
      method: request.method,
      path: request.url.split('?')[0],
      key,
    };
    const fingerprint = createHash('sha256').update(canonical(request.body)).digest('hex');
    const claim = await this.store.claim(scope, fingerprint);
    if (claim.kind === 'reused') {
      throw new DomainError('idempotency_key_reused', 'This Idempotency-Key was used with a different request body', {
        key,
      });
    }
    if (claim.kind === 'in_progress') {
      throw new DomainError(
        'idempotency_in_progress',
        'A request with this Idempotency-Key is still being processed; retry shortly',
        { key },
      );
    }
    if (claim.kind === 'done') {
      const { status, body, headers } = claim.response;
      throw new ReplayedResponse(status, body, { ...headers, 'idempotent-replay': 'true' });
    }
    const status = this.reflector.get<number>(HTTP_CODE_METADATA, context.getHandler()) ?? HttpStatus.CREATED;
    try {
      const body: unknown = await lastValueFrom(next.handle() as Observable<unknown>, { defaultValue: undefined });
      await this.store.complete(scope, {
        status,
        body,
        headers: { 'content-type': 'application/json; charset=utf-8' },
      });
      return body;
    } catch (error) {
      const mapped = mapError(error);
      const validation = mapped.status === 400 && mapped.body.error === 'bad_request';
      if (validation || mapped.status >= 500) await this.store.release(scope, claim.claimedAt);
      else
        await this.store.complete(scope, {
          status: mapped.status,
          body: mapped.body,
          headers: { 'content-type': 'application/json; charset=utf-8' },
        });
      throw error;
    }
  }
}
