import { FakeRequest, bearer, startFakeJsonServer } from './http-fake';

/** DigitalOcean custom token scopes for domains. */
export type DigitalOceanScope = 'domain:read' | 'domain:create' | 'domain:update' | 'domain:delete';

export interface DigitalOceanRecord {
  id: number;
  type: string;
  /** Relative to the domain; `@` at the apex. */
  name: string;
  data: string;
  priority: number | null;
  port: number | null;
  ttl: number;
  weight: number | null;
  flags: number | null;
  tag: string | null;
}

export interface DigitalOceanFake {
  /** The API base, like https://api.digitalocean.com/v2. */
  url: string;
  /** Records per domain name. */
  records: Map<string, DigitalOceanRecord[]>;
  requests: FakeRequest[];
  addRecord(domain: string, record: { name: string; type: string; data: string; priority?: number }): void;
  close(): Promise<void>;
}

export interface DigitalOceanFakeOptions {
  tokens: Record<string, { scopes: DigitalOceanScope[] }>;
  domains: string[];
}

/**
 * DigitalOcean's v2 domains API as dns/apply uses it: GET /domains/{name}, records list (with the
 * fully-qualified `name` filter, `{domain_records, links, meta: {total}}`), create (201
 * `{domain_record}`), delete (204), and errors as `{id, message}` (401 unauthorized, 403 forbidden,
 * 404 not_found, 422 unprocessable_entity).
 */
export async function startDigitalOceanFake(options: DigitalOceanFakeOptions): Promise<DigitalOceanFake> {
  let nextId = 3_352_000;
  const records = new Map<string, DigitalOceanRecord[]>(options.domains.map((d) => [d, []]));
  const error = (status: number, id: string, message: string) => ({ status, body: { id, message } });
  const makeRecord = (r: { name: string; type: string; data: string; priority?: number; ttl?: number }) => ({
    id: nextId++,
    type: r.type,
    name: r.name,
    data: r.data,
    priority: r.priority ?? null,
    port: null,
    ttl: r.ttl ?? 1800,
    weight: null,
    flags: null,
    tag: null,
  });

  const server = await startFakeJsonServer((req) => {
    const token = options.tokens[bearer(req.authorization) ?? ''];
    if (!token) return error(401, 'unauthorized', 'Unable to authenticate you');
    const can = (s: DigitalOceanScope) => token.scopes.includes(s);
    const match = /^\/v2\/domains\/([^/]+)(\/records(?:\/(\d+))?)?$/.exec(req.path);
    if (!match) return error(404, 'not_found', 'The resource you were accessing could not be found.');
    const domain = decodeURIComponent(match[1]);
    const list = records.get(domain);
    const needed: DigitalOceanScope =
      req.method === 'GET' ? 'domain:read' : req.method === 'DELETE' ? 'domain:delete' : 'domain:create';
    if (!can(needed)) return error(403, 'forbidden', 'You are not authorized to perform this operation');
    if (!list) return error(404, 'not_found', 'The resource you were accessing could not be found.');
    if (!match[2] && req.method === 'GET') {
      return { status: 200, body: { domain: { name: domain, ttl: 1800, zone_file: `$ORIGIN ${domain}.\n` } } };
    }
    if (match[2] && !match[3] && req.method === 'GET') {
      const fqdn = req.query.get('name');
      const type = req.query.get('type');
      const relative = fqdn
        ? fqdn === domain
          ? '@'
          : fqdn.replace(new RegExp(`\\.${domain.replace(/\./g, '\\.')}$`), '')
        : undefined;
      const all = list.filter((r) => (!relative || r.name === relative) && (!type || r.type === type));
      const perPage = Number(req.query.get('per_page') ?? 20);
      const page = Number(req.query.get('page') ?? 1);
      return {
        status: 200,
        body: {
          domain_records: all.slice((page - 1) * perPage, page * perPage),
          links: {},
          meta: { total: all.length },
        },
      };
    }
    if (match[3] && req.method === 'DELETE') {
      const index = list.findIndex((r) => r.id === Number(match[3]));
      if (index === -1) return error(404, 'not_found', 'The resource you were accessing could not be found.');
      list.splice(index, 1);
      return { status: 204 };
    }
    if (match[2] && !match[3] && req.method === 'POST') {
      const body = req.body as { type?: string; name?: string; data?: string; ttl?: number };
      if (!body?.type || !body.name || !body.data) return error(422, 'unprocessable_entity', "Name can't be blank");
      if (body.type === 'CNAME' && body.data !== '@' && !body.data.endsWith('.')) {
        return error(422, 'unprocessable_entity', 'Data needs to end with a dot (.)');
      }
      if (body.type === 'CNAME' && body.name === '@') {
        return error(422, 'unprocessable_entity', 'CNAME records cannot be created at the apex');
      }
      const clash = list.some(
        (r) =>
          r.name === body.name &&
          ['A', 'AAAA', 'CNAME'].includes(r.type) &&
          (r.type === 'CNAME' || body.type === 'CNAME'),
      );
      if (clash) return error(422, 'unprocessable_entity', 'CNAME records cannot share a name with other records');
      const record = makeRecord({ type: body.type, name: body.name, data: body.data, ttl: body.ttl });
      list.push(record);
      return { status: 201, body: { domain_record: record } };
    }
    return error(405, 'method_not_allowed', 'Method not allowed');
  });

  return {
    url: `${server.url}/v2`,
    records,
    requests: server.requests,
    addRecord(domain, r) {
      const list = records.get(domain);
      if (!list) throw new Error(`No domain ${domain} in the fake`);
      list.push(makeRecord(r));
    },
    close: () => server.close(),
  };
}
