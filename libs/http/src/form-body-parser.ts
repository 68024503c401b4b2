import type { FastifyInstance } from 'fastify';
import { BODY_LIMIT_BYTES } from './json-body-parser';

/**
 * `application/x-www-form-urlencoded` bodies (RFC 6749 requires them at the OAuth endpoints) as a
 * plain object; a repeated parameter becomes an array so the route can refuse it.
 */
export function registerFormBodyParser(fastify: FastifyInstance): void {
  fastify.addContentTypeParser(
    'application/x-www-form-urlencoded',
    { parseAs: 'string', bodyLimit: BODY_LIMIT_BYTES },
    (_request, body, done) => {
      done(null, parseForm(typeof body === 'string' ? body : body.toString('utf8')));
    },
  );
}

export function parseForm(body: string): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = Object.create(null) as Record<string, string | string[]>;
  for (const [name, value] of new URLSearchParams(body)) {
    const seen = out[name];
    out[name] = seen === undefined ? value : [...(Array.isArray(seen) ? seen : [seen]), value];
  }
  return { ...out };
}
