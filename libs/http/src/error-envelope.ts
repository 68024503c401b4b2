import { HttpException } from '@nestjs/common';
import { DomainError, ErrorCode, isTransientDatabaseError, unstorableValueError } from '@app/kernel';
import { statusOf } from './error-status';

export interface ErrorEnvelope {
  error: ErrorCode;
  message: string;
  details?: Record<string, unknown>;
}

export interface MappedError {
  status: number;
  body: ErrorEnvelope;
  /** True when the caller did nothing wrong: log it with the request id. */
  unexpected: boolean;
  /** Seconds for a Retry-After header. */
  retryAfter?: number;
}

/** What a client is told to wait after the database was away or its pool full. */
const DATABASE_RETRY_AFTER_SECONDS = 1;

/** Fastify's own request errors (parsing, limits) carry a FST_* code and a status. */
interface FastifyLikeError {
  code?: string;
  statusCode?: number;
  message?: string;
}

const FASTIFY_ERRORS: Record<string, ErrorEnvelope> = {
  FST_ERR_CTP_INVALID_MEDIA_TYPE: {
    error: 'bad_request',
    message: 'Unsupported content type: send the body as JSON with content-type application/json',
  },
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: { error: 'bad_request', message: 'Content-Length does not match the body' },
  FST_ERR_CTP_EMPTY_JSON_BODY: { error: 'bad_request', message: 'The JSON body is empty' },
  FST_ERR_CTP_BODY_TOO_LARGE: { error: 'payload_too_large', message: 'The request body is larger than 1 MiB' },
  // The router's own (http-app.ts answerFrameworkError): before any route or hook ran.
  FST_ERR_BAD_URL: {
    error: 'bad_request',
    message: 'The URL path is not valid: each "%" must start a %XX escape of UTF-8 bytes (send a "%" itself as %25)',
  },
  FST_ERR_MAX_PARAM_LENGTH: {
    error: 'not_found',
    message: 'Not found: a segment of the path is longer than 100 characters, and no id is that long',
  },
};

/** What Node's HTTP parser refused, before any request existed (http-app.ts answerClientError). */
export function clientErrorAnswer(code: string | undefined): { status: number; body: ErrorEnvelope } {
  const message =
    code === 'HPE_HEADER_OVERFLOW'
      ? 'The request headers are too large: send at most 16 KiB of headers'
      : code === 'ERR_HTTP_REQUEST_TIMEOUT'
        ? 'The request took too long to arrive'
        : 'The request is not valid HTTP/1.1 (a header name or value holds a character HTTP does not allow, such as NUL, CR or LF)';
  return { status: 400, body: { error: 'bad_request', message } };
}

/** Turns anything thrown while serving a request into the spec's envelope and status. */
export function mapError(error: unknown): MappedError {
  if (error instanceof DomainError) {
    const status = statusOf(error.code);
    return { status, body: envelope(error.code, error.message, error.details), unexpected: status >= 500 };
  }
  if (error instanceof HttpException) return fromHttpException(error);
  const fastify = error as FastifyLikeError;
  if (fastify && typeof fastify.code === 'string' && FASTIFY_ERRORS[fastify.code]) {
    const body = FASTIFY_ERRORS[fastify.code];
    return { status: statusOf(body.error), body, unexpected: false };
  }
  // A value PostgreSQL can never store (NUL, out-of-range dates, too long): the request's fault, not an outage.
  const unstorable = unstorableValueError(error);
  if (unstorable) return mapError(unstorable);
  // PostgreSQL away, or every pooled connection busy past the pool's wait: the client may retry.
  if (isTransientDatabaseError(error)) {
    return {
      status: 503,
      body: envelope(
        'service_unavailable',
        'The database is unavailable or busy; retry shortly (a POST with the same Idempotency-Key)',
        {
          retryAfter: DATABASE_RETRY_AFTER_SECONDS,
        },
      ),
      retryAfter: DATABASE_RETRY_AFTER_SECONDS,
      unexpected: false,
    };
  }
  return { status: 500, body: envelope('internal_error', 'Something went wrong on our side'), unexpected: true };
}

function fromHttpException(error: HttpException): MappedError {
  const status = error.getStatus();
  if (status === 415) {
    return { status: 400, body: FASTIFY_ERRORS.FST_ERR_CTP_INVALID_MEDIA_TYPE, unexpected: false };
  }
  const code = codeForStatus(status);
  const message = status === 404 ? 'No such route' : error.message;
  return {
    status: statusOf(code) === status ? status : statusOf(code),
    body: envelope(code, message),
    unexpected: status >= 500,
  };
}

function codeForStatus(status: number): ErrorCode {
  if (status === 401) return 'unauthorized';
  if (status === 403) return 'forbidden';
  if (status === 404) return 'not_found';
  if (status === 405) return 'method_not_allowed';
  if (status === 413) return 'payload_too_large';
  if (status === 429) return 'rate_limited';
  if (status === 503) return 'service_unavailable';
  if (status >= 400 && status < 500) return 'bad_request';
  return 'internal_error';
}

function envelope(error: ErrorCode, message: string, details?: Record<string, unknown>): ErrorEnvelope {
  return details === undefined ? { error, message } : { error, message, details };
}
