import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Document, OpenAPIBackend, Operation, SetMatchType } from 'openapi-backend';
import { isApiPath } from './route-scanner';

/**
 * Tests only: every HTTP exchange of an app checked against an OpenAPI document (openapi-backend:
 * routing + Ajv). One checker for both kinds of test app: in-process apps (test/support/openapi-exchanges.ts)
 * and the dist processes tests spawn with OPENAPI_VIOLATIONS_FILE (exchange-log.ts).
 *
 * A violation: an answer whose status, declared headers or body the document does not describe, a
 * route it does not describe, or a request the server accepted (2xx) that the document says is
 * invalid. Bad-input exchanges pass as long as their 4xx is a documented status with the `Error` envelope.
 *
 * openapi-backend and ajv-formats are dev dependencies (a production image has neither): they are
 * loaded here, when a test asks for the check, never by a process that does not.
 */

type Json = Record<string, unknown>;
interface DocumentedResponse {
  content?: Record<string, unknown>;
}

export interface ExchangeViolation {
  method: string;
  /** The path without its query. */
  path: string;
  status: number;
  problem: string;
}

/** `PATCH /v1/domains/{id} -> 200: body: ...` */
export const describeViolation = (v: ExchangeViolation): string => `${v.method} ${v.path} -> ${v.status}: ${v.problem}`;

/**
 * Registers the check on the app's Fastify instance (call before `app.init()` / `listen`);
 * `onExchange` hears every checked exchange with its violations (none when it matches).
 */
export async function checkExchangesAgainstOpenApi(
  app: NestFastifyApplication,
  document: Json,
  onExchange: (violations: ExchangeViolation[]) => void,
): Promise<void> {
  const { OpenAPIBackend, SetMatchType } = await import('openapi-backend');
  const { default: addFormats } = await import('ajv-formats');
  // quick: schemas compile on first use (the whole document takes seconds of CPU).
  const api = new OpenAPIBackend({
    definition: document as Document,
    validate: true,
    coerceTypes: true,
    quick: true,
    customizeAjv: (ajv) => addFormats(ajv),
  });
  await api.init();
  app
    .getHttpAdapter()
    .getInstance()
    .addHook('onSend', (request: FastifyRequest, reply: FastifyReply, payload: unknown, done) => {
      const path = request.url.split('?')[0];
      let violations: ExchangeViolation[];
      try {
        violations = check(api, SetMatchType.Any, request, reply, payload).map((problem) => ({
          method: request.method,
          path,
          status: reply.statusCode,
          problem,
        }));
      } catch (error) {
        violations = [
          {
            method: request.method,
            path,
            status: reply.statusCode,
            problem: `the check itself failed: ${String(error)}`,
          },
        ];
      }
      onExchange(violations);
      done(null, payload);
    });
}

function check(
  api: OpenAPIBackend,
  anyHeaders: SetMatchType,
  request: FastifyRequest,
  reply: FastifyReply,
  payload: unknown,
): string[] {
  // Split, not parsed with URL: WHATWG URL would read an id of `%2E%2E` as a dot segment and drop it.
  const at = request.url.indexOf('?');
  const url = {
    pathname: at < 0 ? request.url : request.url.slice(0, at),
    search: at < 0 ? '' : request.url.slice(at),
  };
  const status = reply.statusCode;
  const responseType = String(reply.getHeader('content-type') ?? '').split(';')[0];
  const body = responseType.includes('json') ? parseJson(payload) : undefined;
  // CORS preflights are the browser's, answered by the CORS layer for any route: not operations.
  if (request.method === 'OPTIONS' && request.headers['access-control-request-method']) return [];
  // The console's HTML pages are not the API, and routes a test mounts for itself are no one's.
  if (!isApiPath(url.pathname) || url.pathname.startsWith('/test-')) return [];
  const operation = api.matchOperation({
    method: request.method,
    path: url.pathname,
    headers: request.headers as Record<string, string>,
    query: url.search.slice(1),
  });
  if (!operation) {
    // Unknown routes (and methods) answer the error envelope; anything else is undocumented.
    if ((status === 404 || status === 405) && isErrorEnvelope(body)) return [];
    return ['no operation of the document describes this request'];
  }
  const problems: string[] = [];
  const responses = (operation.responses ?? {}) as Record<string, DocumentedResponse | undefined>;
  const response = responses[String(status)] ?? responses.default;
  if (!response) {
    return [`status ${status} is not documented for ${operation.operationId} (${Object.keys(responses).join(', ')})`];
  }
  const declared = Object.keys(response.content ?? {});
  if (declared.length && !declared.some((type) => type.split(';')[0] === responseType)) {
    problems.push(`content-type ${responseType || 'none'} is not one of ${declared.join(', ')}`);
  } else if (body !== undefined) {
    const result = api.validateResponse(body, operation, status);
    if (result.errors?.length) problems.push(`body: ${describe(result.errors)}`);
  }
  const headers = api.validateResponseHeaders(lowerCase(reply.getHeaders()), operation, {
    statusCode: status,
    setMatchType: anyHeaders,
  });
  if (headers.errors?.length) problems.push(`headers: ${describe(headers.errors)}`);
  if (status < 300) problems.push(...acceptedButInvalid(api, operation, request, url));
  return problems;
}

/** The server accepted this request: the document must say it is valid. */
function acceptedButInvalid(
  api: OpenAPIBackend,
  operation: Operation,
  request: FastifyRequest,
  url: { pathname: string; search: string },
): string[] {
  const itemErrors = (operation as Json)['x-item-errors'] === true;
  const result = api.validateRequest(
    {
      method: request.method,
      path: url.pathname,
      headers: request.headers as Record<string, string>,
      query: url.search.slice(1),
      body: request.body as Json | undefined,
    },
    operation,
  );
  const errors = (result.errors ?? []).filter(
    // Bulk items are each validated on their own inside a success answer (x-item-errors).
    (error) => !(itemErrors && /^\/requestBody\/[^/]+\/\d+(\/|$)/.test(error.instancePath)),
  );
  return errors.length ? [`accepted, but the document says the request is invalid: ${describe(errors)}`] : [];
}

function parseJson(payload: unknown): unknown {
  if (typeof payload !== 'string' && !Buffer.isBuffer(payload)) return undefined;
  const text = payload.toString();
  if (!text) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return Symbol.for('not-json');
  }
}

const isErrorEnvelope = (body: unknown): boolean =>
  !!body && typeof body === 'object' && typeof (body as Json).error === 'string' && 'message' in (body as Json);

const lowerCase = (headers: Json): Json =>
  Object.fromEntries(Object.entries(headers).map(([key, value]) => [key.toLowerCase(), String(value)]));

const describe = (errors: { instancePath: string; message?: string; params?: unknown }[]): string =>
  errors
    .slice(0, 5)
    .map((e) => `${e.instancePath || '/'} ${e.message ?? ''} ${JSON.stringify(e.params ?? {})}`)
    .join('; ');
