import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Logger } from 'pino';
import { redactUrl } from './secret-redaction';

/** Probes and scrapes: a line each would drown the log. */
const QUIET_PATHS = new Set(['/healthz', '/readyz', '/metrics']);

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
      // A connect-session token rides in the widget demo's query string, an OIDC code in the SSO callback's.
      req: { method: request.method, url: redactUrl(url) },
      res: { statusCode: reply.statusCode },
      responseTime: Math.round(reply.elapsedTime),
    },
    'request completed',
  );
}
