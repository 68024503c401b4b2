import { ExecutionContext, SetMetadata, createParamDecorator } from '@nestjs/common';
import type { AuditAction } from './console-audit.store';
import type { ConsoleRequest } from './console-request';

export const CONSOLE_AUDITED = 'console:audited';

/**
 * The audit action a console route records when it succeeds (ConsoleAuditor writes it): workspace from
 * `:ws`, target from `:id` and the signed-in user as actor, unless the handler notes others.
 */
export const Audited = (action: AuditAction) => SetMetadata(CONSOLE_AUDITED, action);

/** What a handler adds to its audit entry; each note is one entry (a replay of many events notes each). */
export interface AuditNoteValue {
  target?: string | null;
  workspaceId?: string | null;
  /** Who did it, when there is no session yet (sign-in, setup). */
  actor?: string;
  detail?: Record<string, unknown>;
}
export type AuditNoteFn = (note: AuditNoteValue) => void;

export const AuditNote = createParamDecorator((_: unknown, ctx: ExecutionContext): AuditNoteFn => {
  const request = ctx.switchToHttp().getRequest<ConsoleRequest>();
  return (note) => (request.auditNotes ??= []).push(note);
});
