import type { FastifyInstance } from 'fastify';

/** Largest request body accepted (bigger ones answer 413). */
export const BODY_LIMIT_BYTES = 1024 * 1024;

/**
 * JSON bodies through Fastify's prototype-poisoning-safe parser, where an empty body means "no body"
 * (clients often send content-type: application/json on a bodyless POST).
 */
export function registerJsonBodyParser(fastify: FastifyInstance): void {
  const strict = fastify.getDefaultJsonParser('error', 'error');
  fastify.removeAllContentTypeParsers();
  fastify.addContentTypeParser(
    'application/json',
    { parseAs: 'string', bodyLimit: BODY_LIMIT_BYTES },
    (request, body, done) => {
      if (typeof body === 'string' && body.trim() === '') {
        done(null, undefined);
        return;
      }
      void strict(request, typeof body === 'string' ? body : body.toString('utf8'), done);
    },
  );
}
