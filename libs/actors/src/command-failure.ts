import { DomainError, isTransientDatabaseError, unstorableValueError } from '@app/kernel';
import { ActorRequest, ActorResponse, FencedError, VersionConflictError } from './actor.types';

/** Why an actor left memory other than by passivation: its state in memory may no longer be the stored one. */
export type EvictionReason = 'fenced' | 'conflict' | 'unstorable' | 'database_unavailable' | 'error';

/** What a command that threw answers, how it is counted and logged, and whether its actor must go. */
export interface FailureVerdict {
  response: ActorResponse;
  /** `actors_commands_total`'s outcome; none for the retries the client makes itself (fenced, conflict). */
  outcome?: 'rejected' | 'database_unavailable' | 'error';
  evict?: EvictionReason;
  log?: { level: 'warn' | 'error'; message: string; fields: Record<string, unknown> };
}

/** Judges an error thrown while handling `request`: a rejection, a retry, or a failure on our side. */
export function failureVerdict(request: ActorRequest, error: unknown): FailureVerdict {
  const { kind, id } = request;
  if (error instanceof DomainError) {
    return {
      response: { ok: false, error: { code: error.code, message: error.message, details: error.details } },
      outcome: 'rejected',
    };
  }
  if (error instanceof FencedError) return { response: { retry: 'fenced' }, evict: 'fenced' };
  if (error instanceof VersionConflictError) return { response: { retry: 'conflict' }, evict: 'conflict' };
  const unstorable = unstorableValueError(error);
  if (unstorable) {
    // A value the database can never store: retrying would fail the same way, so the caller is told (400).
    return {
      response: {
        ok: false,
        error: { code: unstorable.code, message: unstorable.message, details: unstorable.details },
      },
      outcome: 'rejected',
      evict: 'unstorable',
      log: {
        level: 'warn',
        message: 'Value refused by the database',
        fields: { kind, id, sqlstate: unstorable.details?.sqlstate },
      },
    };
  }
  if (isTransientDatabaseError(error)) {
    // Whether the write committed is unknown: the retry re-activates and finds its command record.
    return {
      response: { retry: 'database_unavailable' },
      outcome: 'database_unavailable',
      evict: 'database_unavailable',
      log: { level: 'warn', message: 'Database unavailable; the client retries', fields: { err: error, kind, id } },
    };
  }
  return {
    response: { ok: false, error: { code: 'internal_error', message: 'The command failed on our side' } },
    outcome: 'error',
    evict: 'error',
    log: {
      level: 'error',
      message: 'Actor command failed',
      fields: { err: error, kind, id, commandId: request.commandId, attempt: request.attempt },
    },
  };
}
