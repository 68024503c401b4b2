import { DomainError } from '@app/kernel';
import type { FastifyInstance } from 'fastify';
import secureJson from 'secure-json-parse';

/** Largest request body accepted (bigger ones answer 413). */
export const BODY_LIMIT_BYTES = 1024 * 1024;

const REFUSE_POISONING = { protoAction: 'error', constructorAction: 'error' } as const;

/**
 * JSON bodies through the prototype-poisoning-safe parser Fastify uses, where an empty body means
 * "no body" (clients often send content-type: application/json on a bodyless POST). Called here
 * rather than through Fastify's default parser, which answers every failure with "Body is not
 * valid JSON": a body refused for a `__proto__` key is valid JSON, and the client should be told.
 */
export function registerJsonBodyParser(fastify: FastifyInstance): void {
  fastify.removeAllContentTypeParsers();
  fastify.addContentTypeParser(
    'application/json',
    { parseAs: 'string', bodyLimit: BODY_LIMIT_BYTES },
    (_request, body, done) => {
      const text = typeof body === 'string' ? body : body.toString('utf8');
      if (text.trim() === '') {
        done(null, undefined);
        return;
      }
      try {
        done(null, secureJson.parse(text, undefined, REFUSE_POISONING));
      } catch (error) {
        done(refusal(error), undefined);
      }
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
