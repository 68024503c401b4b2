import { ERROR_CODES } from '@app/kernel';
import {
  DnsServer,
  ORIGIN_URL,
  TEST_ADMIN_TOKEN,
  TestApp,
  createWorkspaceVia,
  domainEnv,
  domainZones,
  startDnsServer,
  startTestApp,
  takeOpenApiViolations,
} from '@test/support';
import { Agent, request as httpRequest } from 'node:http';
import { Client } from 'pg';

/**
 * A seeded fuzz of every operation of `/openapi.json`, in the spirit of body-validation.e2e-spec.ts:
 * hostile path, query and header parameters (NUL, a lone surrogate, invisible and bidi characters,
 * very long values, bad percent-encoding) and hostile bodies (5,000 levels of nesting, NUL and
 * surrogates in every string field, dates PostgreSQL cannot hold), with and without credentials.
 *
 * It fails on any 5xx, on any answer the document does not describe (the status here; the whole
 * exchange through the OpenAPI check every e2e app runs, test/support/openapi-exchanges.ts), on an
 * error that is not the envelope, and on a rejected request that changed what is stored. The
 * operations and fields come from the document, so a new one is fuzzed without editing this file.
 * FUZZ_SEED picks another sample of the values sent without credentials.
 */

type Json = Record<string, any>;
interface Operation {
  method: string;
  template: string;
  doc: Json;
}
interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
}
interface Probe {
  op: Operation;
  what: string;
  path: string;
  query?: string;
  headers?: Record<string, string>;
  body?: string;
  /** No credentials, where the operation needs some. */
  anonymous?: boolean;
}

const SEED = Number(process.env.FUZZ_SEED ?? 20261127);
// ~2,730 probes: 25-45 s alone, past 120 s on two cores shared with a full suite and other work (load 20).
jest.setTimeout(360_000);
const METHODS = ['get', 'post', 'put', 'patch', 'delete'];
const DEEP = 5_000;

/** Strings no field should choke on: each is refused with a 4xx or stored as sent. */
const HOSTILE_STRINGS: [string, string][] = [
  ['NUL', 'a\u0000b'],
  ['lone surrogate', 'a\ud800b'],
  ['zero-width space', 'shop.example.com\u200b'],
  ['bidi override', '\u202eshop.example.com'],
  ['byte-order mark', '\ufeffx'],
  ['10,000 characters', 'x'.repeat(10_000)],
  ['markup', '<script>alert(1)</script>'],
  ['SQL', "' or 1=1 --"],
];
/** Dates that JavaScript parses and PostgreSQL cannot hold (or that are not dates at all). */
const EXTREME_DATES = [
  '+275760-09-13T00:00:00.000Z',
  '-271821-04-20T00:00:00.000Z',
  '0000-01-01T00:00:00.000Z',
  '10000-01-01T00:00:00.000Z',
  '2024-02-30T00:00:00.000Z',
  '1e400',
];
/** Path and query values as they travel in the URL (percent-encoded, or deliberately not). */
const HOSTILE_URL_VALUES: [string, string][] = [
  ...HOSTILE_STRINGS.filter(([name]) => name !== 'lone surrogate').map(([name, value]): [string, string] => [
    name,
    encodeURIComponent(value),
  ]),
  ['lone surrogate (WTF-8)', 'a%ED%A0%80b'],
  ['bad percent-encoding', 'a%zz'],
  ['cut percent-encoding', 'a%E0%A4%A'],
  ['a lone %', 'a%'],
  ['dot segments', '%2E%2E'],
  ['encoded slash', 'a%2Fb'],
  ['200 characters', 'x'.repeat(200)],
  ['overlong UTF-8', '%C0%AF'],
];
const cursorOf = (createdAt: unknown, id: unknown) =>
  Buffer.from(JSON.stringify([createdAt, id])).toString('base64url');
const HOSTILE_CURSORS: [string, string][] = [
  ...EXTREME_DATES.map((date): [string, string] => [`cursor at ${date}`, cursorOf(date, 'x_1')]),
  ['cursor with NUL id', cursorOf('2026-01-01T00:00:00.000Z', 'a\u0000b')],
  ['cursor with surrogate id', cursorOf('2026-01-01T00:00:00.000Z', '\ud800')],
  ['cursor of another shape', cursorOf({ a: 1 }, [1])],
];

/** mulberry32: the sample of anonymous probes is the same on every run of one seed. */
function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let x = Math.imul(a ^ (a >>> 15), 1 | a);
    x = (x + Math.imul(x ^ (x >>> 7), 61 | x)) ^ x;
    return ((x ^ (x >>> 14)) >>> 0) / 4294967296;
  };
}

describe('fuzz: every operation of the OpenAPI document against hostile input', () => {
  let dns: DnsServer;
  let t: TestApp;
  let port: number;
  let apiKey: string;
  let workspaceId: string;
  let document: Json;
  let operations: Operation[];
  /** Real ids, so that some probes reach past the lookup. Never used by DELETE. */
  const realIds: Record<string, string> = {};
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  let pg: Client;

  beforeAll(async () => {
    dns = await startDnsServer(domainZones());
    t = await startTestApp({ env: domainEnv(dns.address) });
    await t.app.listen(0, '127.0.0.1');
    port = (t.server.address() as { port: number }).port;
    pg = new Client({ connectionString: t.db.url });
    await pg.connect();
    ({ apiKey, workspaceId } = await createWorkspaceVia(t.server));
    document = JSON.parse((await send({ method: 'GET', path: '/openapi.json' })).text) as Json;
    operations = Object.entries(document.paths as Json).flatMap(([template, item]) =>
      Object.entries(item as Json)
        .filter(([method]) => METHODS.includes(method))
        .map(([method, doc]) => ({ method: method.toUpperCase(), template, doc: doc as Json })),
    );
    const auth = { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' };
    const created = async (path: string, body: unknown) =>
      JSON.parse((await send({ method: 'POST', path, headers: auth, body: JSON.stringify(body) })).text) as Json;
    // A hostname without DNS records, checked now: its monitor status settles before the fuzz starts.
    realIds['/v1/domains/{id}'] = (
      await created('/v1/domains', { hostname: 'quiet.customer-a.com', originUrl: ORIGIN_URL })
    ).domain.id;
    await send({ method: 'POST', path: `/v1/domains/${realIds['/v1/domains/{id}']}/check`, headers: auth });
    // Disabled: no delivery attempts run beside the fuzz.
    realIds['/v1/webhook-endpoints/{id}'] = (
      await created('/v1/webhook-endpoints', { url: 'https://hooks.example.com/in', enabled: false })
    ).endpoint.id;
    realIds['/v1/projects/{id}'] = (await created('/v1/projects', { name: 'fuzz' })).project.id;
    realIds['/admin/workspaces/{id}'] = workspaceId;
    takeOpenApiViolations();
  });
  afterAll(async () => {
    agent.destroy();
    await pg?.end();
    await t?.close();
    await dns?.close();
  });

  /** One exchange, the path exactly as given (no URL normalization), on a kept-alive connection. */
  function send(probe: { method: string; path: string; headers?: Record<string, string>; body?: string }) {
    return new Promise<Answer>((resolve, reject) => {
      const req = httpRequest(
        { host: '127.0.0.1', port, agent, method: probe.method, path: probe.path, headers: probe.headers },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (chunk: Buffer) => chunks.push(chunk));
          res.on('end', () =>
            resolve({ status: res.statusCode ?? 0, headers: res.headers, text: Buffer.concat(chunks).toString() }),
          );
        },
      );
      req.on('error', reject);
      req.end(probe.body);
    });
  }

  const credentialOf = (template: string) =>
    template.startsWith('/admin/') ? TEST_ADMIN_TOKEN : template.startsWith('/v1/') ? apiKey : undefined;
  const needsCredential = (op: Operation) => (op.doc.security as unknown[] | undefined)?.length !== 0;
  const resolve = (schema: Json | undefined): Json => {
    if (!schema) return {};
    const name = (schema.$ref as string | undefined)?.replace('#/components/schemas/', '');
    return name ? resolve((document.components as Json).schemas[name] as Json) : schema;
  };
  const jsonBodySchema = (op: Operation): Json | undefined => {
    const content = (op.doc.requestBody as Json | undefined)?.content as Json | undefined;
    return content?.['application/json'] ? resolve((content['application/json'] as Json).schema as Json) : undefined;
  };

  /** A body the schema would take, as far as a schema tells: required fields with plain values. */
  function sample(schema: Json, name = '', depth = 0): unknown {
    const s = resolve(schema);
    if (s.enum) return (s.enum as unknown[])[0];
    if (s.oneOf || s.anyOf) return sample(((s.oneOf ?? s.anyOf) as Json[])[0], name, depth);
    if (s.allOf) return Object.assign({}, ...(s.allOf as Json[]).map((part) => sample(part, name, depth)));
    switch (s.type) {
      case 'integer':
      case 'number':
        return s.minimum ?? 1;
      case 'boolean':
        return true;
      case 'array':
        return s.minItems && depth < 4 ? [sample(s.items as Json, name, depth + 1)] : [];
      case 'object': {
        if (depth > 4) return {};
        const required = new Set((s.required as string[] | undefined) ?? []);
        return Object.fromEntries(
          Object.entries((s.properties as Json | undefined) ?? {})
            .filter(([key]) => required.has(key))
            .map(([key, property]) => [key, sample(property as Json, key, depth + 1)]),
        );
      }
      default:
        if (/url/i.test(name) || s.format === 'uri') return ORIGIN_URL;
        if (/email/i.test(name) || s.format === 'email') return 'fuzz@example.com';
        if (s.format === 'date-time' || s.format === 'date') return '2026-01-01T00:00:00.000Z';
        if (/hostname/i.test(name)) return 'fuzz.customer-a.com';
        return 'x'.repeat(Math.max(1, (s.minLength as number | undefined) ?? 1));
    }
  }

  /** Every leaf field of a body schema by path (array items at index 0), with its schema. */
  function leaves(schema: Json, path: (string | number)[] = [], depth = 0): { path: (string | number)[]; s: Json }[] {
    const s = resolve(schema);
    if (depth > 4) return [];
    if (s.type === 'array') return leaves(s.items as Json, [...path, 0], depth + 1);
    if (s.type === 'object' || s.properties) {
      const own = Object.entries((s.properties as Json | undefined) ?? {}).flatMap(([key, property]) =>
        leaves(property as Json, [...path, key], depth + 1),
      );
      // A free-form object (metadata): a leaf of its own, for the deep nesting.
      return s.properties ? own : [{ path, s }];
    }
    return [{ path, s }];
  }

  function withValue(body: unknown, path: (string | number)[], value: unknown): unknown {
    if (!path.length) return value;
    const [head, ...rest] = path;
    if (typeof head === 'number') {
      const list = Array.isArray(body) ? [...(body as unknown[])] : [];
      list[head] = withValue(list[head], rest, value);
      return list;
    }
    const object = body && typeof body === 'object' && !Array.isArray(body) ? { ...(body as Json) } : {};
    object[head] = withValue(object[head], rest, value);
    return object;
  }

  const deepObject = () => `${'{"a":'.repeat(DEEP)}1${'}'.repeat(DEEP)}`;
  const deepArray = () => `${'['.repeat(DEEP)}${']'.repeat(DEEP)}`;
  const MARK = '"__DEEP__"';

  /** The probes of one operation: path, query, header and body values, each alone. */
  function probesOf(op: Operation, rnd: () => number): Probe[] {
    const params = ((op.doc.parameters as Json[] | undefined) ?? []).map((p) =>
      p.$ref ? ((document.components as Json).parameters[(p.$ref as string).split('/').pop()!] as Json) : p,
    );
    const pathParams = params.filter((p) => p.in === 'path').map((p) => p.name as string);
    // `/v1/domains/{id}/check` uses the id of `/v1/domains/{id}`.
    const owner = /^(.*?\/)\{[^}]+\}/.exec(op.template)?.[1];
    const real = op.method === 'DELETE' || !owner ? undefined : realIds[`${owner}{id}`];
    const fill = (value?: string) =>
      op.template.replace(/\{([^}]+)\}/g, (_, name: string) =>
        value !== undefined && name === pathParams[pathParams.length - 1]
          ? value
          : (real ?? 'x_0000000000000000000000'),
      );
    const schema = jsonBodySchema(op);
    const base = schema ? sample(schema) : undefined;
    const probes: Probe[] = [];
    const add = (probe: Omit<Probe, 'op'>) => {
      probes.push({ op, ...probe });
      // A seeded sample goes without credentials too (most answer 401 before reading anything).
      if (needsCredential(op) && rnd() < 0.15)
        probes.push({ op, ...probe, anonymous: true, what: `${probe.what} (no credentials)` });
    };
    const bodyOf = (value: unknown) => (schema ? JSON.stringify(value) : undefined);

    for (const [name, value] of pathParams.length ? HOSTILE_URL_VALUES : []) {
      add({ what: `path ${pathParams[pathParams.length - 1]}: ${name}`, path: fill(value), body: bodyOf(base) });
    }
    for (const param of params.filter((p) => p.in === 'query')) {
      const values: [string, string][] = [
        ...HOSTILE_URL_VALUES,
        ...EXTREME_DATES.map((d): [string, string] => [`date ${d}`, encodeURIComponent(d)]),
        ...(param.name === 'cursor' ? HOSTILE_CURSORS : []),
        ['empty', ''],
        ['repeated', `a&${param.name as string}=b`],
      ];
      for (const [name, value] of values) {
        add({
          what: `query ${param.name as string}: ${name}`,
          path: fill(),
          query: `${param.name as string}=${value}`,
        });
      }
    }
    const headers: [string, Record<string, string>][] = [
      ['authorization: 10,000 characters', { authorization: `Bearer sk_live_${'x'.repeat(10_000)}` }],
      ['authorization: Latin-1 bytes', { authorization: 'Bearer sk_live_\u00ff\u00fe\u00e9' }],
      ['authorization: Basic', { authorization: 'Basic Zm9vOmJhcg==' }],
      ['authorization: empty bearer', { authorization: 'Bearer ' }],
      ['x-forwarded-for: junk', { 'x-forwarded-for': '999.1.1.1, \u00ff, ::zz' }],
      ['accept: junk', { accept: 'application/\u00ff; q=x' }],
    ];
    if (params.some((p) => p.name === 'Idempotency-Key')) {
      headers.push(
        ['idempotency-key: 300 characters', { 'idempotency-key': 'k'.repeat(300) }],
        ['idempotency-key: Latin-1 bytes', { 'idempotency-key': '\u00ff\u00fe' }],
        ['idempotency-key: empty', { 'idempotency-key': '' }],
      );
    }
    for (const [name, value] of headers)
      add({ what: `header ${name}`, path: fill(), headers: value, body: bodyOf(base) });

    if (schema) {
      add({ what: 'body: 5,000 levels of objects', path: fill(), body: deepObject() });
      add({ what: 'body: 5,000 levels of arrays', path: fill(), body: deepArray() });
      for (const leaf of leaves(schema)) {
        const field = leaf.path.join('.');
        if (leaf.s.type === 'string' || (!leaf.s.type && !leaf.s.properties)) {
          for (const [name, value] of HOSTILE_STRINGS) {
            add({
              what: `body ${field}: ${name}`,
              path: fill(),
              body: JSON.stringify(withValue(base, leaf.path, value)),
            });
          }
        }
        const dateLike = leaf.s.format === 'date-time' || leaf.s.format === 'date' || /At$|After|Before/.test(field);
        for (const date of dateLike ? EXTREME_DATES : []) {
          add({
            what: `body ${field}: date ${date}`,
            path: fill(),
            body: JSON.stringify(withValue(base, leaf.path, date)),
          });
        }
        if (leaf.s.type === 'object' || leaf.s.type === undefined || leaf.s.type === 'array') {
          const text = JSON.stringify(withValue(base, leaf.path, '__DEEP__')).replace(MARK, deepObject());
          add({ what: `body ${field}: 5,000 levels`, path: fill(), body: text });
        }
        if (leaf.s.type === 'integer' || leaf.s.type === 'number') {
          const text = JSON.stringify(withValue(base, leaf.path, '__DEEP__')).replace(MARK, '1e400');
          add({ what: `body ${field}: 1e400`, path: fill(), body: text });
        }
      }
    }
    return probes;
  }

  /**
   * What the API stores, table by table, as one comparable value each. Only what a request writes:
   * the columns background work moves (the monitor's probes, the outbox relay, key last-use times)
   * are left out, so a change is the request's own.
   */
  const STORED: Record<string, string> = {
    workspaces: 'x::text',
    api_keys: "id || coalesce(revoked_at::text, '')",
    oauth_clients: 'x::text',
    oauth_tokens: 'x::text',
    projects: 'x::text',
    domains: "id || hostname || coalesce(deleted_at::text, '') || coalesce((state->'settings')::text, '')",
    webhook_endpoints: 'x::text',
    purchases: 'x::text',
    console_users: 'x::text',
    console_memberships: 'x::text',
    // Events the monitor raises on its own schedule are not a request's.
    outbox_events: `id from outbox_events x where type not in ('domain.monitor_updated', 'domain.verified', 'domain.failed', 'domain.expired')`,
    sandbox_charges: 'x::text',
    sandbox_refunds: 'x::text',
    sandbox_registrations: 'x::text',
  };
  async function storedState(): Promise<Map<string, string>> {
    const sql = Object.entries(STORED)
      .map(([table, row]) => {
        const [expression, from] = row.includes(' from ') ? row.split(' from ') : [row, `${table} x`];
        return `select '${table}' as t, md5(coalesce(string_agg(${expression}, ',' order by ${expression}), '')) as h from ${from}`;
      })
      .join(' union all ');
    const { rows } = await pg.query<{ t: string; h: string }>(sql);
    return new Map(rows.map((row) => [row.t, row.h]));
  }

  it('answers every probe of every operation with a documented 4xx (or success), never a 5xx, and stores nothing it refuses', async () => {
    const started = Date.now();
    const rnd = random(SEED);
    const failures: string[] = [];
    let sent = 0;
    const codes = new Set<string>(ERROR_CODES);
    let stored = await storedState();
    let inSnapshots = 0;
    for (const op of operations) {
      for (const probe of probesOf(op, rnd)) {
        const headers: Record<string, string> = {
          ...(probe.body !== undefined ? { 'content-type': 'application/json' } : {}),
        };
        const credential = credentialOf(op.template);
        if (credential && !probe.anonymous) headers.authorization = `Bearer ${credential}`;
        Object.assign(headers, probe.headers);
        const path = probe.query === undefined ? probe.path : `${probe.path}?${probe.query}`;
        const answer = await send({ method: op.method, path, headers, body: probe.body });
        sent++;
        const at = `${op.method} ${op.template} ${probe.what} -> ${answer.status}`;
        const fail = (problem: string) => failures.push(`${at}: ${problem}`);
        if (answer.status >= 500) fail(answer.text.slice(0, 200));
        else if (!(String(answer.status) in (op.doc.responses as Json)))
          fail('status not documented for the operation');
        if (answer.status >= 400) {
          let body: Json | undefined;
          try {
            body = JSON.parse(answer.text) as Json;
          } catch {
            body = undefined;
          }
          if (!body || !codes.has(body.error as string) || typeof body.message !== 'string') {
            fail(`not the error envelope: ${answer.text.slice(0, 120)}`);
          }
        }
        // What is stored moves only with accepted requests (background columns are left out): a
        // refused write is compared with the state after the last accepted one.
        if (op.method !== 'GET') {
          const snapshotAt = Date.now();
          const now = await storedState();
          inSnapshots += Date.now() - snapshotAt;
          if (answer.status >= 400) {
            const changed = [...now].filter(([table, hash]) => stored.get(table) !== hash).map(([table]) => table);
            if (changed.length) fail(`refused, yet changed ${changed.join(', ')}`);
          }
          stored = now;
        }
        for (const violation of takeOpenApiViolations()) failures.push(`${at}: ${violation}`);
      }
    }
    const seconds = (Date.now() - started) / 1000;
    expect({ sent, failures }).toEqual({ sent, failures: [] });
    if (process.env.FUZZ_VERBOSE)
      console.log(
        `fuzz: ${sent} probes in ${seconds.toFixed(1)} s, ${(inSnapshots / 1000).toFixed(1)} s of it reading what is stored (seed ${SEED})`,
      );
  });
});
