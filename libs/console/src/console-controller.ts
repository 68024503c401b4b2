import { Public } from '@app/auth';
import { Controller, UseFilters, UseGuards, UseInterceptors, applyDecorators } from '@nestjs/common';
import { ConsoleErrorFilter } from './console-error.filter';
import { ConsoleGuard } from './console.guard';
import { ConsoleResponder } from './console.responder';
import { ConsoleAuditor } from './console-auditor.interceptor';

/**
 * A console page controller: outside the bearer-token guard (@Public), behind the console session
 * guard instead (each route declares its `@ConsoleAccess`), with HTML errors, page responses and
 * the route's declared `@Audited` entry.
 */
export const ConsoleController = (path = 'console') =>
  applyDecorators(
    Public(),
    UseGuards(ConsoleGuard),
    UseFilters(ConsoleErrorFilter),
    // The responder is outermost: the auditor sees the handler's own answer (a refused form is not audited).
    UseInterceptors(ConsoleResponder, ConsoleAuditor),
    Controller(path),
  );
