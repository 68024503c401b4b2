import { OpenApiService, isApiPath } from '@app/openapi';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import type { FastifyReply, FastifyRequest } from 'fastify';
import addFormats from 'ajv-formats';
import { type Document, OpenAPIBackend, type Operation, SetMatchType } from 'openapi-backend';

/**
 * Every HTTP exchange of an in-process test app, checked against the OpenAPI document the same app
 * serves (openapi-backend: routing + Ajv). A violation is kept until the jest setup file
 * (openapi-jest-setup.ts) fails the test that made it: an answer whose status, declared headers or
 * body the document does not describe, a route it does not describe, or a request the server
 * accepted (2xx) that the document says is invalid. Bad-input tests pass as long as their 4xx is
 * a documented status with the `Error` envelope.
 */

type Json = Record<string, any>;

const violations: string[] = [];
let checked = 0;

/** Violations since the last call (and forgets them). */
export function takeOpenApiViolations(): string[] {
  return violations.splice(0);
}

/** How many exchanges were checked in this test file so far. */
export const checkedExchanges = (): number => checked;

/** Registers the check on the app's Fastify instance; call before `app.init()`. */
export async function validateExchangesAgainstOpenApi(app: NestFastifyApplication): Promise<void> {
  let document: Json;
  try {
    document = app.get(OpenApiService, { strict: false }).document();
  } catch {
    return; // an app without the document (a bare module under test): nothing to check
  }
  // quick: schemas compile on first use (the whole document takes seconds of CPU per test file).
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
      try {
        checked++;
        violations.push(...check(api, request, reply, payload));
      } catch (error) {
        violations.push(`${request.method} ${request.url}: the check itself failed: ${String(error)}`);
      }
      done(null, payload);
    });
}

function check(api: OpenAPIBackend, request: FastifyRequest, reply: FastifyReply, payload: unknown): string[] {
  const url = new URL(request.url, 'http://local');
  const status = reply.statusCode;
  const name = `${request.method} ${url.pathname} -> ${status}`;
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
    return [`${name}: no operation of the document describes this request`];
  }
  const problems: string[] = [];
  const responses: Json = operation.responses ?? {};
  const response = responses[String(status)] ?? responses.default;
  if (!response) {
    return [
      `${name}: status ${status} is not documented for ${operation.operationId} (${Object.keys(responses).join(', ')})`,
    ];
  }
  const declared = Object.keys(response.content ?? {});
  if (declared.length && !declared.some((type) => type.split(';')[0] === responseType)) {
    problems.push(`${name}: content-type ${responseType || 'none'} is not one of ${declared.join(', ')}`);
  } else if (body !== undefined) {
    const result = api.validateResponse(body, operation, status);
    if (result.errors?.length) problems.push(`${name}: body: ${describe(result.errors)}`);
  }
  const headers = api.validateResponseHeaders(lowerCase(reply.getHeaders()), operation, {
    statusCode: status,
    setMatchType: SetMatchType.Any,
  });
  if (headers.errors?.length) problems.push(`${name}: headers: ${describe(headers.errors)}`);
  if (status < 300) problems.push(...acceptedButInvalid(api, operation, request, url, name));
  return problems;
}

/** The server accepted this request: the document must say it is valid. */
function acceptedButInvalid(
  api: OpenAPIBackend,
  operation: Operation,
  request: FastifyRequest,
  url: URL,
  name: string,
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
  return errors.length ? [`${name}: accepted, but the document says the request is invalid: ${describe(errors)}`] : [];
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
