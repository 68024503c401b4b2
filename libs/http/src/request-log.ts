import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Logger } from 'pino';

/** Probes and scrapes: a line each would drown the log. */
const QUIET_PATHS = new Set(['/healthz', '/readyz', '/metrics']);
/** A connect-session token may ride in the widget demo's query string. */
const TOKEN_IN_QUERY = /([?&]token=)[^&]*/g;

/**
 * One line per answered request, at info, written by an onResponse hook: no child logger and no
 * serializer run per request (what pino-http's middleware cost on every request, logged or not),
 * and nothing at all when info is off.
 */
export function logRequest(logger: Logger, request: FastifyRequest, reply: FastifyReply): void {
  if (!logger.isLevelEnabled('info')) return;
  const url = request.url;
  if (QUIET_PATHS.has(url)) return;
  logger.info(
    {
      requestId: request.id,
      req: { method: request.method, url: url.includes('token=') ? url.replace(TOKEN_IN_QUERY, '$1[Redacted]') : url },
      res: { statusCode: reply.statusCode },
      responseTime: Math.round(reply.elapsedTime),
    },
    'request completed',
  );
}
