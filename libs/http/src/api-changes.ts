import type { FastifyRequest } from 'fastify';

/**
 * What happens after an API change was answered, for a route answered outside Nest's pipeline (a
 * fast path): the same follow-up its interceptors would have run. The console's ApiAuditor provides
 * it (the audit log); an app without the console has none, and then nothing follows a change.
 */
export interface ApiChanges {
  /** The change succeeded with this answer. */
  answered(request: FastifyRequest, answer: unknown): void;
  /** The change was refused with this error. */
  refused(request: FastifyRequest, error: unknown): void;
}

export const API_CHANGES = Symbol('ApiChanges');
