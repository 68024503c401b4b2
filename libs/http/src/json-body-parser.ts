import { DomainError } from '@app/kernel';
import type { FastifyInstance } from 'fastify';
import secureJson from 'secure-json-parse';
import { findUnstorable } from './storable-input';
import { invalidFields } from './validation.pipe';

/** Largest request body accepted (bigger ones answer 413). */
export const BODY_LIMIT_BYTES = 1024 * 1024;

const REFUSE_POISONING = { protoAction: 'error', constructorAction: 'error' } as const;

const BOM_REFUSED =
  'The JSON body starts with a byte-order mark (U+FEFF): send UTF-8 JSON without one, starting with "{"';

/**
 * JSON bodies through the prototype-poisoning-safe parser Fastify uses, where an empty body means
 * "no body" (clients often send content-type: application/json on a bodyless POST). Called here
 * rather than through Fastify's default parser, which answers every failure with "Body is not
 * valid JSON": a body refused for a `__proto__` key is valid JSON, and the client should be told.
 * A parsed body is then walked once (storable-input.ts): NUL, lone surrogates, invisible characters
 * in addresses and nesting deeper than 64 levels (MAX_JSON_DEPTH) are refused with 400 naming the
 * field, before anything recursive (validation, the idempotency fingerprint) or the database sees it.
 */
export function registerJsonBodyParser(fastify: FastifyInstance): void {
  fastify.removeAllContentTypeParsers();
  fastify.addContentTypeParser(
    'application/json',
    { parseAs: 'string', bodyLimit: BODY_LIMIT_BYTES },
    (_request, body, done) => {
      const text = typeof body === 'string' ? body : body.toString('utf8');
      // Checked before trim(), which would drop it; secure-json-parse would skip it silently too.
      if (text.charCodeAt(0) === 0xfeff) {
        done(new DomainError('bad_request', BOM_REFUSED), undefined);
        return;
      }
      if (text.trim() === '') {
        done(null, undefined);
        return;
      }
      let parsed: unknown;
      try {
        parsed = secureJson.parse(text, undefined, REFUSE_POISONING);
      } catch (error) {
        done(refusal(error), undefined);
        return;
      }
      const unstorable = findUnstorable(parsed);
      if (unstorable) done(invalidFields([{ field: unstorable.field, problems: [unstorable.problem] }]), undefined);
      else done(null, parsed);
    },
  );
}

function refusal(error: unknown): DomainError {
  const reason = error instanceof Error ? error.message : String(error);
  if (/forbidden prototype property/.test(reason)) {
    return new DomainError(
      'bad_request',
      'The JSON body has a "__proto__" key, or a "constructor" key holding "prototype": such keys are refused',
    );
  }
  return new DomainError('bad_request', `Malformed JSON body: ${reason}`);
}
