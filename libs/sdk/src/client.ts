import createClient, { type Client, type Middleware } from 'openapi-fetch';
import { randomUUID } from 'node:crypto';
import type { components, paths } from './generated/openapi';
import { IDEMPOTENT_POSTS } from './generated/idempotent-operations';

export type Schemas = components['schemas'];
export type ErrorBody = Schemas['Error'];

/** An API key (`sk_live_...`), or OAuth client credentials (tokens fetched and refreshed as needed). */
export type Credentials = { apiKey: string } | { clientId: string; clientSecret: string; scope?: string };

export interface ClientOptions {
  /** e.g. `https://api.example.com` (no trailing `/v1`). */
  baseUrl: string;
  credentials: Credentials;
  /** Retries of an answer 429 or 503 (default 3); each waits Retry-After, else a growing backoff. */
  retries?: number;
  /** Upper bound of one wait, in ms (default 30 s). */
  maxRetryDelayMs?: number;
  fetch?: typeof fetch;
  /** Milliseconds since the epoch, for OAuth token expiry (default `Date.now`). */
  now?: () => number;
}

/** A non-2xx answer, with the service's error envelope `{error, message, details}`. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: ErrorBody['error'] | (string & {}),
    message: string,
    readonly details: unknown,
    readonly requestId: string | null,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

export interface CustomDomainsClient {
  /** The typed client (openapi-fetch): `api.GET('/v1/domains/{id}', {params: {path: {id}}})`. */
  api: Client<paths>;
  /** Every item of a cursor-paginated list, fetching pages as the loop goes. */
  paginate<P extends ListPath>(path: P, init?: ListInit<P>): AsyncGenerator<ListItem<P>>;
}

/** The data of a call, or an ApiError for its error answer. */
export async function unwrap<T>(call: Promise<{ data?: T; error?: unknown; response: Response }>): Promise<T> {
  const { data, error, response } = await call;
  if (response.ok) return data as T;
  const body = (error ?? {}) as Partial<ErrorBody>;
  throw new ApiError(
    response.status,
    body.error ?? `http_${response.status}`,
    body.message ?? response.statusText,
    body.details ?? null,
    response.headers.get('x-service-request-id'),
  );
}

export function createCustomDomainsClient(options: ClientOptions): CustomDomainsClient {
  const baseFetch = options.fetch ?? globalThis.fetch;
  const tokens = tokenSource(options, baseFetch);
  const api = createClient<paths>({ baseUrl: options.baseUrl, fetch: retrying(options, baseFetch, tokens) });
  api.use(idempotencyKeys);
  return { api, paginate: (path, init) => paginate(api, path, init) };
}

/** A fresh Idempotency-Key on each POST that takes one; kept across the retries of that call. */
const idempotencyKeys: Middleware = {
  onRequest({ request, schemaPath }) {
    if (request.method === 'POST' && IDEMPOTENT_POSTS.has(schemaPath) && !request.headers.has('idempotency-key')) {
      request.headers.set('idempotency-key', randomUUID());
    }
    return request;
  },
};

interface TokenSource {
  header(): Promise<string>;
  /** Forgets a token the server refused (401), so the next header() fetches another. */
  refused(): void;
  oauth: boolean;
}

function tokenSource(options: ClientOptions, fetcher: typeof fetch): TokenSource {
  const credentials = options.credentials;
  if ('apiKey' in credentials) {
    return { header: () => Promise.resolve(`Bearer ${credentials.apiKey}`), refused: () => undefined, oauth: false };
  }
  const now = options.now ?? Date.now;
  let cached: { token: string; expiresAt: number } | undefined;
  let pending: Promise<string> | undefined;
  const fetchToken = async (): Promise<string> => {
    const form = new URLSearchParams({ grant_type: 'client_credentials' });
    if (credentials.scope) form.set('scope', credentials.scope);
    const basic = Buffer.from(`${credentials.clientId}:${credentials.clientSecret}`).toString('base64');
    const response = await fetcher(new URL('/oauth/token', options.baseUrl), {
      method: 'POST',
      headers: { authorization: `Basic ${basic}`, 'content-type': 'application/x-www-form-urlencoded' },
      body: form,
    });
    const body = (await response.json()) as { access_token?: string; expires_in?: number } & Partial<ErrorBody>;
    if (!response.ok || !body.access_token) {
      throw new ApiError(response.status, body.error ?? 'invalid_client', body.message ?? 'No token', body, null);
    }
    // Refreshed a little before it expires, so a request never leaves with a dying token.
    cached = { token: body.access_token, expiresAt: now() + ((body.expires_in ?? 60) - 30) * 1000 };
    return cached.token;
  };
  return {
    oauth: true,
    refused: () => (cached = undefined),
    header: async () => {
      if (cached && cached.expiresAt > now()) return `Bearer ${cached.token}`;
      pending ??= fetchToken().finally(() => (pending = undefined));
      return `Bearer ${await pending}`;
    },
  };
}

/** The fetch openapi-fetch uses: credentials, then retries on 429/503 (and one token refresh on 401). */
function retrying(options: ClientOptions, fetcher: typeof fetch, tokens: TokenSource): typeof fetch {
  const retries = options.retries ?? 3;
  const maxDelay = options.maxRetryDelayMs ?? 30_000;
  return async (input, init) => {
    const original = new Request(input, init);
    let refreshed = false;
    for (let attempt = 0; ; attempt++) {
      const request = original.clone();
      request.headers.set('authorization', await tokens.header());
      const response = await fetcher(request);
      if (response.status === 401 && tokens.oauth && !refreshed) {
        await response.arrayBuffer(); // free the connection
        tokens.refused();
        refreshed = true;
        attempt--;
        continue;
      }
      if ((response.status !== 429 && response.status !== 503) || attempt >= retries) return response;
      await response.arrayBuffer(); // free the connection
      await sleep(Math.min(maxDelay, retryDelay(response.headers.get('retry-after'), attempt)));
    }
  };
}

/** Retry-After in seconds (or an HTTP date); without it 0.5 s, 1 s, 2 s ... */
export function retryDelay(retryAfter: string | null, attempt: number): number {
  if (retryAfter) {
    const seconds = Number(retryAfter);
    if (Number.isFinite(seconds)) return Math.max(0, seconds * 1000);
    const date = Date.parse(retryAfter);
    if (!Number.isNaN(date)) return Math.max(0, date - Date.now());
  }
  return 500 * 2 ** attempt;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

// Pagination: every GET whose answer is `{<items>: [...], nextCursor}`.
type JsonOf<R> = R extends { content: { 'application/json': infer B } } ? B : never;
type PageOf<P extends keyof paths> = paths[P] extends { get: { responses: { 200: infer R } } } ? JsonOf<R> : never;
export type ListPath = {
  [P in keyof paths]: PageOf<P> extends { nextCursor: string | null } ? P : never;
}[keyof paths];
type ItemsKey<P extends ListPath> = Exclude<keyof PageOf<P>, 'nextCursor'>;
export type ListItem<P extends ListPath> = PageOf<P>[ItemsKey<P>] extends (infer T)[] ? T : never;
type ParamsOf<P extends ListPath> = paths[P] extends { get: { parameters: infer Q } } ? Q : never;
export type ListInit<P extends ListPath> = {
  query?: Omit<NonNullable<ParamsOf<P> extends { query?: infer Q } ? Q : never>, 'cursor'>;
} & (ParamsOf<P> extends { path: infer A } ? { path: A } : { path?: never });

async function* paginate<P extends ListPath>(
  api: Client<paths>,
  path: P,
  init?: ListInit<P>,
): AsyncGenerator<ListItem<P>> {
  let cursor: string | null | undefined;
  do {
    const get = api.GET as unknown as (
      p: string,
      o: unknown,
    ) => Promise<{ data?: Record<string, unknown>; error?: unknown; response: Response }>;
    const page = await unwrap(
      get(path, { params: { path: init?.path, query: { ...init?.query, ...(cursor ? { cursor } : {}) } } }),
    );
    const key = Object.keys(page).find((k) => k !== 'nextCursor' && Array.isArray(page[k]));
    for (const item of (key ? page[key] : []) as ListItem<P>[]) yield item;
    cursor = page.nextCursor as string | null;
  } while (cursor);
}
