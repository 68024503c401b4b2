import { Public } from '@app/auth';
import { Controller, UseFilters, UseGuards, UseInterceptors, applyDecorators } from '@nestjs/common';
import { ConsoleErrorFilter } from './console-error.filter';
import { ConsoleGuard } from './console.guard';
import { ConsoleResponder } from './console.responder';

/**
 * A console page controller: outside the bearer-token guard (@Public), behind the console session
 * guard instead, with HTML errors and page responses.
 */
export const ConsoleController = (path = 'console') =>
  applyDecorators(
    Public(),
    UseGuards(ConsoleGuard),
    UseFilters(ConsoleErrorFilter),
    UseInterceptors(ConsoleResponder),
    Controller(path),
  );
