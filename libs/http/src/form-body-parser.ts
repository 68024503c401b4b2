import { errorCodes } from 'fastify';
import type { FastifyInstance } from 'fastify';
import { BODY_LIMIT_BYTES } from './json-body-parser';
import { findUnstorable } from './storable-input';
import { invalidFields } from './validation.pipe';

/**
 * The routes that take `application/x-www-form-urlencoded`: the OAuth endpoints (RFC 6749 requires
 * it) and the web console's HTML forms. The JSON API refuses a form body as it refuses any other
 * content type ("send the body as JSON with content-type application/json"), rather than reading
 * `hostname=...` as one unknown property.
 */
const acceptsForm = (route: string): boolean => /^\/(oauth\/|console(\/|$))/.test(route);

/**
 * `application/x-www-form-urlencoded` bodies of the routes that take them, as a plain object; a
 * repeated parameter becomes an array so the route can refuse it. NUL (and, in address fields,
 * invisible characters) is refused as in JSON bodies (storable-input.ts); line breaks separate the
 * addresses of a textarea (the console's nameservers), so they are allowed there.
 */
export function registerFormBodyParser(fastify: FastifyInstance): void {
  fastify.addContentTypeParser(
    'application/x-www-form-urlencoded',
    { parseAs: 'string', bodyLimit: BODY_LIMIT_BYTES },
    (request, body, done) => {
      if (!acceptsForm(request.routeOptions.url ?? request.url)) {
        done(new errorCodes.FST_ERR_CTP_INVALID_MEDIA_TYPE(), undefined);
        return;
      }
      const form = parseForm(typeof body === 'string' ? body : body.toString('utf8'));
      const unstorable = findUnstorable(form, '', 'form');
      if (unstorable) done(invalidFields([{ field: unstorable.field, problems: [unstorable.problem] }]), undefined);
      else done(null, form);
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
