import { CallHandler, ExecutionContext, Injectable, NestInterceptor } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { Observable, from, map, mergeMap, of } from 'rxjs';
import { ConsoleFlashes } from './console-flashes.store';
import { ConsoleRequest, PageWithStatus, Redirect, ShowOnce } from './console-request';
import { Html } from './html';

/** No framing, no inline script, nothing from another origin: the console needs none of it. */
const CONSOLE_CSP =
  "default-src 'none'; style-src 'self'; script-src 'self'; connect-src 'self'; img-src 'self' data:; form-action 'self'; frame-ancestors 'none'; base-uri 'none'";

export function pageHeaders(reply: FastifyReply): FastifyReply {
  return reply
    .header('content-security-policy', CONSOLE_CSP)
    .header('cache-control', 'no-store')
    .header('x-frame-options', 'DENY')
    .header('x-content-type-options', 'nosniff')
    .header('referrer-policy', 'same-origin');
}

/**
 * Sends a returned `Html` as a page (`PageWithStatus` with its status) and a returned `Redirect` as 303 See Other;
 * a returned `ShowOnce` is held as the session's one-time flash and redirected to (post, redirect, show once).
 */
@Injectable()
export class ConsoleResponder implements NestInterceptor {
  constructor(private readonly flashes: ConsoleFlashes) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const reply = context.switchToHttp().getResponse<FastifyReply>();
    const request = context.switchToHttp().getRequest<ConsoleRequest>();
    return next.handle().pipe(
      mergeMap((result: unknown) => {
        if (!(result instanceof ShowOnce)) return of(result);
        return from(this.flashes.put(request.consoleActor!.sessionHash, result.flash)).pipe(
          map((id) => new Redirect(`${result.location}${result.location.includes('?') ? '&' : '?'}shown=${id}`)),
        );
      }),
      map((result: unknown) => {
        if (result instanceof Redirect) {
          pageHeaders(reply).status(303).header('location', result.location);
          return '';
        }
        if (result instanceof PageWithStatus) {
          pageHeaders(reply).status(result.status).header('content-type', 'text/html; charset=utf-8');
          return result.page.value;
        }
        if (result instanceof Html) {
          pageHeaders(reply).header('content-type', 'text/html; charset=utf-8');
          return result.value;
        }
        return result;
      }),
    );
  }
}
