import { ArgumentsHost, Catch, ExceptionFilter, Logger } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { mapError } from './error-envelope';
import { ReplayedResponse } from './replayed-response';

const logger = new Logger('Errors');

/** Writes the error envelope for a request that failed; unexpected failures are logged, never leaked. */
export function replyWithError(error: unknown, request: FastifyRequest, reply: FastifyReply): void {
  if (error instanceof ReplayedResponse) {
    void reply.status(error.status).headers(error.headers).send(error.body);
    return;
  }
  const mapped = mapError(error);
  if (mapped.unexpected) {
    logger.error({ requestId: request.id, err: error }, `Unexpected failure on ${request.method} ${request.url}`);
  }
  if (mapped.retryAfter !== undefined) void reply.header('retry-after', String(mapped.retryAfter));
  void reply.status(mapped.status).header('content-type', 'application/json; charset=utf-8').send(mapped.body);
}

/** The one place where thrown errors become HTTP responses (registered as APP_FILTER). */
@Catch()
export class AllExceptionsFilter implements ExceptionFilter {
  catch(error: unknown, host: ArgumentsHost): void {
    const http = host.switchToHttp();
    replyWithError(error, http.getRequest<FastifyRequest>(), http.getResponse<FastifyReply>());
  }
}
