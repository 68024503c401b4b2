import { CallHandler, ExecutionContext, Injectable, NestInterceptor } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { Observable, map } from 'rxjs';
import { PageWithStatus, Redirect } from './console-request';
import { Html } from './html';

/** No framing, no inline script, nothing from another origin: the console needs none of it. */
export const CONSOLE_CSP =
  "default-src 'none'; style-src 'self'; script-src 'self'; connect-src 'self'; img-src 'self' data:; form-action 'self'; frame-ancestors 'none'; base-uri 'none'";

export function pageHeaders(reply: FastifyReply): FastifyReply {
  return reply
    .header('content-security-policy', CONSOLE_CSP)
    .header('cache-control', 'no-store')
    .header('x-frame-options', 'DENY')
    .header('x-content-type-options', 'nosniff')
    .header('referrer-policy', 'same-origin');
}

/** Sends a returned `Html` as a page (`PageWithStatus` with its status) and a returned `Redirect` as 303 See Other. */
@Injectable()
export class ConsoleResponder implements NestInterceptor {
  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const reply = context.switchToHttp().getResponse<FastifyReply>();
    return next.handle().pipe(
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
