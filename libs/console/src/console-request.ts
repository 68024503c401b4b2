import { ExecutionContext, createParamDecorator } from '@nestjs/common';
import { ConsoleActor } from './access';
import type { AuditNoteValue } from './console-audited';
import type { Flash } from './console-flashes.store';
import type { Html } from './html';
import type { WorkspaceContext } from './views/layout';

export interface ConsoleRequest {
  method: string;
  url: string;
  ip: string;
  protocol: string;
  headers: Record<string, string | string[] | undefined>;
  body?: unknown;
  params?: Record<string, string | undefined>;
  query?: Record<string, unknown>;
  consoleActor?: ConsoleActor;
  /** The `:ws` workspace of a `read` or `write` route, loaded by ConsoleGuard. */
  consoleWorkspace?: WorkspaceContext;
  auditNotes?: AuditNoteValue[];
  /** The one-time flash named by `?shown=` on a GET, taken (deleted) by ConsoleGuard. */
  consoleFlash?: Flash;
}

/** The signed-in console user of this request (set by ConsoleGuard). */
export const Actor = createParamDecorator(
  (_: unknown, ctx: ExecutionContext): ConsoleActor => ctx.switchToHttp().getRequest<ConsoleRequest>().consoleActor!,
);

/** Thrown when a page needs a session: the filter sends the browser to sign-in and back. */
export class SignInRequired extends Error {
  /** `notice`: what the sign-in page says (the browser's session is over; a form it sent was not saved). */
  constructor(
    readonly returnTo: string,
    readonly notice?: 'session-ended' | 'form-not-saved',
  ) {
    super('Sign in to continue');
  }
}

/** A page answer: rendered HTML, or a 303 to another console page (post/redirect/get). */
export class Redirect {
  constructor(readonly location: string) {}
}

/**
 * A create-once answer (new API key, webhook secret, one-time password): the responder holds `flash`
 * for this session and redirects to `location` with `?shown=<id>`, whose first GET shows it once.
 */
export class ShowOnce {
  constructor(
    readonly flash: Flash,
    readonly location: string,
  ) {}
}

/** The flash this page shows once (ConsoleGuard took it from `?shown=`), if it is still there. */
export const ShownOnce = createParamDecorator(
  (_: unknown, ctx: ExecutionContext): Flash | undefined =>
    ctx.switchToHttp().getRequest<ConsoleRequest>().consoleFlash,
);

/** A page sent with another status than 200: a form shown again with its problems (400, 409). */
export class PageWithStatus {
  constructor(
    readonly status: number,
    readonly page: Html,
  ) {}
}

/** Form fields as strings; a repeated field (checkbox lists) as an array. */
export type FormBody = Record<string, string | string[] | undefined>;

export const field = (body: FormBody | undefined, name: string): string | undefined => {
  const value = body?.[name];
  return Array.isArray(value) ? value[0] : value;
};

export const fields = (body: FormBody | undefined, name: string): string[] => {
  const value = body?.[name];
  return value === undefined ? [] : Array.isArray(value) ? value : [value];
};
