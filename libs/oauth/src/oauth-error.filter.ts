import { mapError, replyWithError } from '@app/http';
import { ArgumentsHost, Catch, ExceptionFilter } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';

/**
 * Errors of the OAuth endpoints in both shapes at once: RFC 6749 section 5.2 (`error`,
 * `error_description`) and the service envelope (`error`, `message`, `details`). Input the
 * validation pipe refuses is `invalid_request`; `invalid_client` carries `WWW-Authenticate: Basic`.
 */
@Catch()
export class OAuthErrorFilter implements ExceptionFilter {
  catch(error: unknown, host: ArgumentsHost): void {
    const http = host.switchToHttp();
    const request = http.getRequest<FastifyRequest>();
    const reply = http.getResponse<FastifyReply>();
    const mapped = mapError(error);
    if (mapped.unexpected) {
      replyWithError(error, request, reply);
      return;
    }
    const body = { ...mapped.body };
    if (body.error === 'bad_request') body.error = 'invalid_request';
    if (body.error === 'invalid_client') void reply.header('www-authenticate', 'Basic realm="oauth", charset="UTF-8"');
    void reply
      .status(mapped.status)
      .header('cache-control', 'no-store')
      .header('pragma', 'no-cache')
      .header('content-type', 'application/json; charset=utf-8')
      .send({ ...body, error_description: body.message });
  }
}
