import { randomBytes } from 'node:crypto';
import { FakeRequest, bearer, startFakeJsonServer } from './http-fake';

/** Permissions of a Cloudflare API token, as its dashboard names them. */
export type CloudflarePermission = 'zone:read' | 'dns:read' | 'dns:edit';

export interface CloudflareRecord {
  id: string;
  zone_id: string;
  zone_name: string;
  name: string;
  type: string;
  content: string;
  proxiable: boolean;
  proxied: boolean;
  ttl: number;
  priority?: number;
  created_on: string;
  modified_on: string;
}

export interface CloudflareFake {
  /** The API base, like https://api.cloudflare.com/client/v4. */
  url: string;
  records: CloudflareRecord[];
  requests: FakeRequest[];
  addRecord(
    zone: string,
    record: { name: string; type: string; content: string; proxied?: boolean; priority?: number },
  ): void;
  close(): Promise<void>;
}

export interface CloudflareFakeOptions {
  /** token -> its permissions; `status` other than active makes /user/tokens/verify report it. */
  tokens: Record<string, { permissions: CloudflarePermission[]; status?: 'active' | 'disabled' | 'expired' }>;
  zones: string[];
  /** Most records a zone may hold; creating past it fails as Cloudflare does (code 81045). */
  recordQuota?: number;
}

const id32 = () => randomBytes(16).toString('hex');
const now = () => new Date().toISOString();

/**
 * Cloudflare's v4 API as far as dns/apply uses it, in its envelope
 * `{success, errors: [{code, message}], messages, result, result_info}`: token verify, zones by name
 * (only zones the token can read are listed), DNS records list/create/delete with the permission checks
 * (403, code 10000 "Authentication error") and the A/AAAA/CNAME-at-the-same-name conflict (code 81053).
 */
export async function startCloudflareFake(options: CloudflareFakeOptions): Promise<CloudflareFake> {
  const zones = options.zones.map((name) => ({ id: id32(), name }));
  const records: CloudflareRecord[] = [];
  const ok = (result: unknown, result_info?: unknown) => ({
    status: 200,
    body: { success: true, errors: [], messages: [], result, ...(result_info ? { result_info } : {}) },
  });
  const fail = (status: number, code: number, message: string) => ({
    status,
    body: { success: false, errors: [{ code, message }], messages: [], result: null },
  });

  const server = await startFakeJsonServer((req) => {
    const path = req.path.replace(/^\/client\/v4/, '');
    const tokenValue = bearer(req.authorization);
    const token = tokenValue ? options.tokens[tokenValue] : undefined;
    if (path === '/user/tokens/verify' && req.method === 'GET') {
      if (!token) return fail(401, 1000, 'Invalid API Token');
      const status = token.status ?? 'active';
      return ok({ id: id32(), status, not_before: null, expires_on: null });
    }
    if (!token || (token.status ?? 'active') !== 'active') return fail(403, 9109, 'Invalid access token');
    const can = (p: CloudflarePermission) => token.permissions.includes(p);
    if (path === '/zones' && req.method === 'GET') {
      const name = req.query.get('name');
      const visible = can('zone:read') ? zones.filter((z) => !name || z.name === name) : [];
      const result = visible.map((z) => ({ id: z.id, name: z.name, status: 'active', paused: false, type: 'full' }));
      return ok(result, { page: 1, per_page: 20, count: result.length, total_count: result.length, total_pages: 1 });
    }
    const match = /^\/zones\/([^/]+)\/dns_records(?:\/([^/]+))?$/.exec(path);
    const zone = match && zones.find((z) => z.id === match[1]);
    if (!match || !zone)
      return fail(404, 7003, `Could not route to ${path}, perhaps your object identifier is invalid?`);
    if (!can('zone:read')) return fail(403, 10000, 'Authentication error');
    const inZone = records.filter((r) => r.zone_id === zone.id);
    if (req.method === 'GET' && !match[2]) {
      if (!can('dns:read') && !can('dns:edit')) return fail(403, 10000, 'Authentication error');
      const name = req.query.get('name');
      const type = req.query.get('type');
      const all = inZone.filter((r) => (!name || r.name === name) && (!type || r.type === type));
      const perPage = Number(req.query.get('per_page') ?? 100);
      const page = Number(req.query.get('page') ?? 1);
      const result = all.slice((page - 1) * perPage, page * perPage);
      return ok(result, {
        page,
        per_page: perPage,
        count: result.length,
        total_count: all.length,
        total_pages: Math.max(1, Math.ceil(all.length / perPage)),
      });
    }
    if (!can('dns:edit')) return fail(403, 10000, 'Authentication error');
    if (req.method === 'DELETE' && match[2]) {
      const index = records.findIndex((r) => r.id === match[2] && r.zone_id === zone.id);
      if (index === -1) return fail(404, 81044, 'Record does not exist.');
      records.splice(index, 1);
      return ok({ id: match[2] });
    }
    if (req.method === 'POST' && !match[2]) {
      const body = req.body as Partial<CloudflareRecord>;
      if (!body?.type || !body.name || !body.content) return fail(400, 9000, 'DNS name is invalid.');
      const name = body.name.toLowerCase();
      if (name !== zone.name && !name.endsWith(`.${zone.name}`))
        return fail(400, 9007, 'Content for record is invalid.');
      const routing = ['A', 'AAAA', 'CNAME'];
      const clash = inZone.some(
        (r) => r.name === name && routing.includes(r.type) && (r.type === 'CNAME' || body.type === 'CNAME'),
      );
      if (options.recordQuota !== undefined && inZone.length >= options.recordQuota) {
        return fail(400, 81045, 'Record quota exceeded.');
      }
      if (clash) return fail(400, 81053, 'An A, AAAA, or CNAME record with that host already exists.');
      const record = makeRecord(zone, { name, type: body.type, content: body.content, proxied: body.proxied ?? false });
      record.ttl = body.ttl ?? 1;
      records.push(record);
      return ok(record);
    }
    return fail(405, 10405, 'Method not allowed');
  });

  function makeRecord(
    zone: { id: string; name: string },
    r: { name: string; type: string; content: string; proxied?: boolean; priority?: number },
  ): CloudflareRecord {
    return {
      id: id32(),
      zone_id: zone.id,
      zone_name: zone.name,
      name: r.name,
      type: r.type,
      content: r.content,
      proxiable: ['A', 'AAAA', 'CNAME'].includes(r.type),
      proxied: r.proxied ?? false,
      ttl: 1,
      ...(r.priority === undefined ? {} : { priority: r.priority }),
      created_on: now(),
      modified_on: now(),
    };
  }

  return {
    url: `${server.url}/client/v4`,
    records,
    requests: server.requests,
    addRecord(zoneName, r) {
      const zone = zones.find((z) => z.name === zoneName);
      if (!zone) throw new Error(`No zone ${zoneName} in the fake`);
      records.push(makeRecord(zone, r));
    },
    close: () => server.close(),
  };
}
