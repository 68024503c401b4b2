import { statusOf } from '@app/http';
import { DomainError, unstorableValueError } from '@app/kernel';
import { ArgumentsHost, Catch, ExceptionFilter, HttpException, Logger } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { ConsoleRequest, SignInRequired } from './console-request';
import { pageHeaders } from './console.responder';
import { errorPage } from './views/error.page';

/** Console errors are pages a person reads (with a way back), never JSON envelopes. */
@Catch()
export class ConsoleErrorFilter implements ExceptionFilter {
  private readonly logger = new Logger('Console');

  catch(thrown: unknown, host: ArgumentsHost): void {
    // A value PostgreSQL can never store is the request's fault (400), as in the API.
    const error = unstorableValueError(thrown) ?? thrown;
    const request = host.switchToHttp().getRequest<ConsoleRequest>();
    const reply = pageHeaders(host.switchToHttp().getResponse<FastifyReply>());
    if (error instanceof SignInRequired) {
      void reply
        .status(303)
        .header(
          'location',
          `/console/sign-in?next=${encodeURIComponent(error.returnTo)}${error.notice ? `&notice=${error.notice}` : ''}`,
        )
        .send('');
      return;
    }
    let status = 500;
    let message = 'Something went wrong on our side. The error was logged; try again in a moment.';
    let details: string[] = [];
    if (error instanceof DomainError) {
      status = statusOf(error.code);
      message = error.message;
      const problems = (error.details?.fields as { field: string; problems: string[] }[] | undefined) ?? [];
      details = problems.map((p) => `${p.field}: ${p.problems.join(', ')}`);
    } else if (error instanceof HttpException) {
      status = error.getStatus();
      message = error.message;
    } else {
      this.logger.error({ err: error, url: request.url }, 'Console request failed');
    }
    void reply
      .status(status)
      .header('content-type', 'text/html; charset=utf-8')
      .send(errorPage({ status, message, details, actor: request.consoleActor, back: request.headers.referer }).value);
  }
}
