import { ALL_SCOPES, ANY_SCOPE } from '@app/auth';
import { RESOURCE_SCHEMAS } from './resource-schemas';
import { byStatus, errorCodesOf, isRateLimited } from './error-responses';
import { OPERATIONS, OperationDoc } from './operations';
import type { RouteInfo } from './route-scanner';
import { SchemaObject, ref } from './schema';

export const API_VERSION = '1.0.0';

type Json = Record<string, unknown>;

const HEADERS: Json = {
  RequestId: { description: 'Request id for support correlation', schema: { type: 'string' } },
  RateLimitLimit: { description: 'Requests allowed in the current window', schema: { type: 'integer' } },
  RateLimitRemaining: { description: 'Requests left in the current window', schema: { type: 'integer' } },
  RateLimitReset: { description: 'Seconds until the window resets', schema: { type: 'integer' } },
  RetryAfter: { description: 'Seconds to wait before retrying', schema: { type: 'integer' } },
  IdempotentReplay: { description: '`true` when this is the stored first response', schema: { type: 'string' } },
  CacheControl: { description: 'Caching policy of the answer', schema: { type: 'string' } },
  Pragma: { description: '`no-cache` (HTTP/1.0 caches, RFC 6749 5.1)', schema: { type: 'string' } },
  WwwAuthenticate: { description: 'The authentication scheme to use (RFC 7235)', schema: { type: 'string' } },
};
const header = (name: string) => ({ $ref: `#/components/headers/${name}` });

/** The document: routes as the app registered them, bodies from the DTOs, answers from OPERATIONS. */
export function buildOpenApiDocument(
  routes: RouteInfo[],
  dtoSchemas: Record<string, SchemaObject>,
  serverUrl?: string,
): Json {
  const paths: Record<string, Json> = {};
  for (const route of routes) {
    const doc = OPERATIONS[`${route.method} ${route.path}`];
    if (!doc) continue; // the OpenAPI test lists undocumented routes
    paths[route.path] ??= {};
    paths[route.path][route.method.toLowerCase()] = operation(route, doc, dtoSchemas);
  }
  const schemas = usedSchemas(paths, { ...dtoSchemas, ...RESOURCE_SCHEMAS });
  const used = new Set(
    Object.values(paths).flatMap((ops) =>
      Object.values(ops as Record<string, { tags: string[] }>).flatMap((o) => o.tags),
    ),
  );
  return {
    openapi: '3.0.3',
    info: {
      title: 'Custom domains and domain registration',
      version: API_VERSION,
      description:
        'Connect customer hostnames (DNS instructions, certificates, proxy or redirect), buy and renew domains, ' +
        'and receive webhooks. All bodies are JSON; every error is `{error, message, details}`. A body sent to an ' +
        'operation that takes none is ignored. A method a path does not have answers 405 `method_not_allowed` ' +
        'with an `Allow` header (and `details.allow`) listing the methods it has; a path no operation has, 404 ' +
        '`not_found`.',
    },
    // Relative by default: the host that serves this document (OpenAPI 3.0 section 4.7.5).
    servers: [{ url: serverUrl ?? '/', description: 'This service' }],
    // The reference opens on domains; the plumbing (OAuth discovery, health, metrics) comes last.
    tags: [...used]
      .sort((a, b) => tagRank(a) - tagRank(b) || a.localeCompare(b))
      .map((name) => ({ name, description: tagDescription(name) })),
    paths,
    components: {
      schemas,
      headers: HEADERS,
      parameters: {
        IdempotencyKey: {
          name: 'Idempotency-Key',
          in: 'header',
          required: false,
          description: 'Makes retries safe: the first response is kept 24 h per workspace, method, path and key.',
          schema: { type: 'string', maxLength: 255 },
        },
      },
      securitySchemes: {
        bearer: {
          type: 'http',
          scheme: 'bearer',
          description: 'An API key (`sk_live_...`) or an OAuth access token; connect-session tokens where noted.',
        },
        oauth2: {
          type: 'oauth2',
          flows: {
            clientCredentials: {
              tokenUrl: '/oauth/token',
              scopes: Object.fromEntries(ALL_SCOPES.map((scope) => [scope, scope])),
            },
          },
        },
        adminToken: { type: 'http', scheme: 'bearer', description: "The operator's ADMIN_TOKEN" },
      },
    },
  };
}

function operation(route: RouteInfo, doc: OperationDoc, dtoSchemas: Record<string, SchemaObject>): Json {
  const parameters: Json[] = route.pathParams.map((name) => ({
    name,
    in: 'path',
    required: true,
    schema: { type: 'string' },
  }));
  if (route.query || doc.query)
    parameters.push(...queryParameters(route.query && dtoSchemas[route.query.name], doc.query));
  if (route.idempotent) parameters.push({ $ref: '#/components/parameters/IdempotencyKey' });
  const limited = isRateLimited(route);
  // Every answer of a limited route carries the window, errors too (the limiter runs first).
  const commonHeaders: Json = {
    'x-service-request-id': header('RequestId'),
    ...(limited ? rateHeaders() : {}),
    ...Object.fromEntries(Object.entries(doc.headers ?? {}).map(([name, component]) => [name, header(component)])),
  };
  const successHeaders: Json = {
    ...commonHeaders,
    ...(route.idempotent ? { 'idempotent-replay': header('IdempotentReplay') } : {}),
  };
  const contentType = doc.contentType ?? 'application/json';
  const responses: Json = {
    [route.status]: {
      description: doc.summary,
      headers: successHeaders,
      content: Object.fromEntries([contentType].flat().map((type) => [type, { schema: doc.response }])),
    },
  };
  for (const [status, codes] of byStatus(
    errorCodesOf(route, doc.errors, { body: !!doc.requestBody, query: !!doc.query }),
  )) {
    responses[status] = {
      description: codes.map((code) => `\`${code}\``).join(', '),
      headers: {
        ...commonHeaders,
        ...(status === 429 ? { 'Retry-After': header('RetryAfter'), ...rateHeaders() } : {}),
        ...Object.fromEntries(
          Object.entries(doc.errorHeaders?.[status] ?? {}).map(([name, component]) => [name, header(component)]),
        ),
      },
      content: { 'application/json': { schema: ref('Error') } },
    };
  }
  return {
    operationId: route.operationId,
    summary: doc.summary,
    ...(doc.description ? { description: doc.description } : {}),
    tags: [tagOf(route.path)],
    security: securityOf(route),
    ...(parameters.length ? { parameters } : {}),
    ...requestBodyOf(route, doc, dtoSchemas),
    responses,
    ...(route.connectSession ? { 'x-connect-session': true } : {}),
    ...(doc.itemErrors ? { 'x-item-errors': true } : {}),
  };
}

const rateHeaders = () => ({
  'x-ratelimit-limit': header('RateLimitLimit'),
  'x-ratelimit-remaining': header('RateLimitRemaining'),
  'x-ratelimit-reset': header('RateLimitReset'),
});

function securityOf(route: RouteInfo): Json[] {
  if (route.auth === 'public') return [];
  if (route.auth === 'admin') return [{ adminToken: [] }];
  const method = route.method === 'GET' ? 'read' : 'write';
  // `*` (AnyScope): any token of the workspace, whatever its scopes.
  const scoped = route.scopeResource && route.scopeResource !== (ANY_SCOPE as string);
  return [{ bearer: [] }, { oauth2: scoped ? [`${route.scopeResource}:${method}`] : [] }];
}

/** `/v1/domain-purchases/{id}` -> `domain-purchases`; `/admin/...` -> `admin`. */
/** The order of /docs: what a SaaS developer uses first, then operators' and machines' routes. */
const TAGS: [string, string][] = [
  ['domains', "Connect your customers' hostnames: DNS instructions, checks, certificates, proxy or redirect"],
  ['projects', 'Group domains by project'],
  ['dns', "Apply the DNS records at the customer's DNS provider"],
  ['tools', 'Check DNS records and hostnames before connecting them'],
  ['domain-purchases', 'Buy, renew and manage domains at the registrar'],
  ['webhook-endpoints', 'Where lifecycle events are delivered, signed'],
  ['events', 'The events sent to webhooks, and their replay'],
  ['workspace', 'The calling workspace'],
  ['connect', "The end customer's connect page"],
  ['widget', 'The embeddable connect widget'],
  ['widget.js', 'The widget script'],
  ['admin', 'Operators: workspaces, API keys, OAuth clients, console users (admin token)'],
  ['edge', 'Edge on-demand certificate questions'],
  ['oauth', 'OAuth 2.0 tokens and discovery'],
  ['docs', 'This reference'],
  ['openapi.json', 'This document'],
  ['asyncapi.json', 'The events as an AsyncAPI document'],
  ['healthz', 'Liveness'],
  ['readyz', 'Readiness'],
  ['metrics', 'Prometheus metrics'],
];
const TAG_ORDER = TAGS.map(([name]) => name);
const tagRank = (tag: string) => (TAG_ORDER.includes(tag) ? TAG_ORDER.indexOf(tag) : TAG_ORDER.indexOf('admin') - 0.5);
const tagDescription = (tag: string) => TAGS.find(([name]) => name === tag)?.[1] ?? tag;

function tagOf(path: string): string {
  const [first, second] = path.split('/').filter(Boolean);
  return first === 'v1' && second ? second : first === '.well-known' || first === 'oauth' ? 'oauth' : first;
}

function queryParameters(schema: SchemaObject | undefined, overrides: Record<string, SchemaObject> = {}): Json[] {
  const required = new Set(schema?.required ?? []);
  // Parameters read one by one (`@Query('token')`) have no DTO: the operation lists them.
  const properties = { ...Object.fromEntries(Object.keys(overrides).map((name) => [name, {}])), ...schema?.properties };
  return Object.entries(properties).map(([name, dtoProperty]) => {
    // A query string has no null: `nullable` (from @IsOptional) means nothing here.
    const { nullable: _, ...property } = overrides[name] ?? dtoProperty;
    return {
      name,
      in: 'query',
      required: required.has(name),
      schema: property,
      ...(property.type === 'array' ? { style: 'form', explode: true } : {}),
    };
  });
}

function requestBodyOf(route: RouteInfo, doc: OperationDoc, dtoSchemas: Record<string, SchemaObject>): Json {
  if (doc.requestBody) {
    const { contentTypes, schema } = doc.requestBody;
    return {
      requestBody: { required: true, content: Object.fromEntries(contentTypes.map((type) => [type, { schema }])) },
    };
  }
  if (!route.body) return {};
  // A body whose fields are all optional may be left out altogether.
  const required = (dtoSchemas[route.body.name]?.required ?? []).length > 0;
  return { requestBody: { required, content: { 'application/json': { schema: ref(route.body.name) } } } };
}

/** Only the schemas the operations refer to (directly or through other schemas). */
function usedSchemas(paths: Json, all: Record<string, SchemaObject>): Record<string, SchemaObject> {
  const used = new Set<string>();
  const visit = (node: unknown): void => {
    if (Array.isArray(node)) node.forEach(visit);
    else if (node && typeof node === 'object') {
      for (const [key, value] of Object.entries(node)) {
        const name =
          key === '$ref' && typeof value === 'string' ? /^#\/components\/schemas\/(.+)$/.exec(value)?.[1] : undefined;
        if (name && !used.has(name)) {
          used.add(name);
          visit(all[name]);
        } else visit(value);
      }
    }
  };
  visit(paths);
  return Object.fromEntries(Object.entries(all).filter(([name]) => used.has(name)));
}
