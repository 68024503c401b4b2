import { ExecutionContext, createParamDecorator } from '@nestjs/common';
import { ConsoleActor } from './access';
import type { AuditNoteValue } from './console-audited';
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
  consoleActor?: ConsoleActor;
  /** The `:ws` workspace of a `read` or `write` route, loaded by ConsoleGuard. */
  consoleWorkspace?: WorkspaceContext;
  auditNotes?: AuditNoteValue[];
}

/** The signed-in console user of this request (set by ConsoleGuard). */
export const Actor = createParamDecorator(
  (_: unknown, ctx: ExecutionContext): ConsoleActor => ctx.switchToHttp().getRequest<ConsoleRequest>().consoleActor!,
);

/** Thrown when a page needs a session: the filter sends the browser to sign-in and back. */
export class SignInRequired extends Error {
  constructor(readonly returnTo: string) {
    super('Sign in to continue');
  }
}

/** A page answer: rendered HTML, or a 303 to another console page (post/redirect/get). */
export class Redirect {
  constructor(readonly location: string) {}
}

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
