import type { RequestWithPrincipal } from '@app/auth';
import type { DomainView } from '@app/domains';
import { CallHandler, ExecutionContext, Injectable, NestInterceptor } from '@nestjs/common';
import { Observable, map } from 'rxjs';
import { toCustomerDomainView } from './customer-domain.view';

const isDomainView = (value: unknown): value is DomainView =>
  typeof value === 'object' && value !== null && typeof (value as DomainView).hostname === 'string';

/**
 * The one place a connect-session caller's answers are cut down: every `{domain}` the routes a
 * session may call answer (`GET /v1/domains/{id}`, `POST .../check`, `POST .../dns/apply`) leaves
 * as the customer's view (customer-domain.view.ts). Registered for every route, so a route newly
 * opened to sessions is covered without a change here; other callers' answers pass untouched.
 */
@Injectable()
export class ConnectSessionViewInterceptor implements NestInterceptor {
  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const principal = context.switchToHttp().getRequest<RequestWithPrincipal>().principal;
    if (principal?.kind !== 'connect_session') return next.handle();
    return next.handle().pipe(map(narrow));
  }
}

function narrow(body: unknown): unknown {
  if (typeof body !== 'object' || body === null || !('domain' in body)) return body;
  const { domain } = body;
  return isDomainView(domain) ? { ...body, domain: toCustomerDomainView(domain) } : body;
}
