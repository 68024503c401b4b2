import { DomainCreateFastPath } from '@app/domains';
import { CLOCK, Clock } from '@app/kernel';
import {
  DnsServer,
  ORIGIN_URL,
  TestApp,
  domainEnv,
  domainZones,
  eventually,
  startDnsServer,
  stableHeaders,
  startTestApp,
  workspaceWithKey,
} from '@test/support';
import request, { Response } from 'supertest';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

/**
 * `POST /v1/domains` runs before Nest's pipeline when the key and a rate-limit reserve are in memory
 * (libs/domains DomainCreateFastPath). It must answer what the controller answers, successes and
 * refusals alike, write the same audit entry, count against the same limits, and leave to the
 * pipeline what it cannot decide in memory (cold keys, connect-session tokens, Idempotency-Keys).
 */
describe('domain create fast path', () => {
  let dns: DnsServer;
  let t: TestApp;
  let fastPath: DomainCreateFastPath;
  // Creations count per hour: each test starts a fresh hour, and so a fresh reserve.
  let now = Math.floor(Date.now() / HOUR) * HOUR + HOUR;
  const as = (k: string) => ({ authorization: `Bearer ${k}` });

  const workspace = () => workspaceWithKey(t.server);
  /** POST, and whether the fast path took it. */
  async function create(key: string, body: unknown, headers: Record<string, string> = {}) {
    const before = fastPath.hits;
    const res = await request(t.server)
      .post('/v1/domains')
      .set({ ...as(key), ...headers })
      .send(body as object);
    return { res, fast: fastPath.hits === before + 1 };
  }
  /** An answer with what differs between two creations by nature (ids, names, times) replaced. */
  function shapeOf(res: Response): unknown {
    const domain = res.body.domain as Record<string, unknown>;
    const hostname = domain.hostname as string;
    const text = res.text
      .split(domain.id as string)
      .join('<id>')
      .split(hostname)
      .join('<hostname>')
      .replace(/\d{4}-\d\d-\d\dT[\d:.]+Z/g, '<time>')
      .replace(/"(token|value|txtValue|name)":"[^"]*"/g, '"$1":"<varies>"');
    const shape = JSON.parse(text) as { domain: Record<string, unknown> };
    // A create carries the api's DNS lookup only if it answered within its 50 ms grace (a busy
    // machine may miss it on either path): the domain starts unknown or as the lookup saw it.
    const { monitorStatus, lastCheckedAt } = shape.domain;
    expect([
      ['unknown', null],
      ['dns_not_resolving', '<time>'],
    ]).toContainEqual([monitorStatus, lastCheckedAt]);
    for (const field of ['monitorStatus', 'monitorMessage', 'lastCheckedAt']) shape.domain[field] = '<first lookup>';
    return shape;
  }
  /** `stableHeaders`, its content-length checked against the body (the first state's message varies its length). */
  function headersOf(res: Response): Record<string, unknown> {
    const { 'content-length': length, ...rest } = stableHeaders(res);
    expect(Number(length)).toBe(Buffer.byteLength(res.text));
    return rest;
  }
  /** The one audit entry of a target (written beside the answer, so waited for). */
  const auditOf = (id: string) =>
    eventually(
      () =>
        t.db.query<{ action: string; actor: string; detail: Record<string, unknown> }>(
          'select action, actor, detail from console_audit where target = $1',
          [id],
        ),
      (rows) => rows.length > 0,
      { what: `the audit entry of ${id}` },
    ).then((rows) => {
      expect(rows).toHaveLength(1);
      return rows[0];
    });

  beforeAll(async () => {
    dns = await startDnsServer(domainZones());
    t = await startTestApp({ env: { ...domainEnv(dns.address), RATE_LIMITS: 'on' } });
    jest.spyOn(t.app.get<Clock>(CLOCK), 'now').mockImplementation(() => now);
    fastPath = t.app.get(DomainCreateFastPath);
  });
  afterAll(async () => {
    await t?.close();
    await dns?.close();
  });
  beforeEach(() => {
    now += HOUR;
  });

  it('answers what the controller answers, and writes the same audit entry', async () => {
    const { key, keyId } = await workspace();
    // The first creation of a window asks PostgreSQL for a reserve: it goes through Nest.
    const slow = await create(key, { hostname: 'slow.customer-a.com', originUrl: ORIGIN_URL });
    const fast = await create(key, { hostname: 'fast.customer-a.com', originUrl: ORIGIN_URL });
    expect([slow.fast, fast.fast]).toEqual([false, true]);
    expect([slow.res.status, fast.res.status]).toEqual([201, 201]);
    expect(shapeOf(fast.res)).toEqual(shapeOf(slow.res));
    expect(fast.res.body.domain.hostname).toBe('fast.customer-a.com');
    expect(headersOf(fast.res)).toEqual(headersOf(slow.res));
    expect(Number(fast.res.headers['x-ratelimit-remaining'])).toBe(
      Number(slow.res.headers['x-ratelimit-remaining']) - 1,
    );
    const [slowAudit, fastAudit] = await Promise.all([
      auditOf(slow.res.body.domain.id as string),
      auditOf(fast.res.body.domain.id as string),
    ]);
    expect(fastAudit).toEqual({ ...slowAudit, detail: { ...slowAudit.detail, name: 'fast.customer-a.com' } });
    expect(fastAudit).toMatchObject({ action: 'domain.created', detail: { via: 'api' } });
    expect(fastAudit.actor).toContain(keyId);
    // The domain is there, as answered.
    const read = await request(t.server).get(`/v1/domains/${fast.res.body.domain.id}`).set(as(key)).expect(200);
    expect(read.body.domain).toEqual(fast.res.body.domain);
  });

  it('refuses bad input, a taken hostname and an unsafe origin with the envelope the controller gives', async () => {
    const { key } = await workspace();
    await create(key, { hostname: 'warm.customer-a.com', originUrl: ORIGIN_URL }); // takes a reserve
    const cases: [string, unknown][] = [
      ['missing hostname', { originUrl: ORIGIN_URL }],
      ['unknown field', { hostname: 'x.customer-a.com', originUrl: ORIGIN_URL, color: 'red' }],
      ['not an object', [1, 2]],
      ['wrong type', { hostname: 7, originUrl: ORIGIN_URL }],
      ['taken', { hostname: 'warm.customer-a.com', originUrl: ORIGIN_URL }],
      ['private origin', { hostname: 'y.customer-a.com', originUrl: 'http://127.0.0.1:8080' }],
      ['bad hostname', { hostname: 'not a host', originUrl: ORIGIN_URL }],
    ];
    for (const [what, body] of cases) {
      const fast = await create(key, body);
      // The same request through Nest: an Idempotency-Key makes the fast path leave it alone.
      const slow = await create(key, body, { 'idempotency-key': `nest-${what.replace(/ /g, '-')}` });
      expect({ what, fast: fast.fast, slow: slow.fast }).toEqual({ what, fast: true, slow: false });
      expect({ what, status: fast.res.status, body: fast.res.body }).toEqual({
        what,
        status: slow.res.status,
        body: slow.res.body,
      });
      expect(fast.res.status).toBeGreaterThanOrEqual(400);
      expect(fast.res.status).toBeLessThan(500);
      expect(Object.keys(fast.res.body as object).sort()).toEqual(['details', 'error', 'message']);
    }
  });

  it('counts against the same limits, and refuses over them with the guard 429', async () => {
    const { key } = await workspace();
    const answers: { status: number; remaining: number; fast: boolean; error?: string }[] = [];
    for (let i = 0; i < 62; i++) {
      const { res, fast } = await create(key, { hostname: `limit${i}.customer-a.com`, originUrl: ORIGIN_URL });
      const remaining = Number(res.headers['x-ratelimit-remaining']);
      answers.push({ status: res.status, remaining, fast, error: res.body.error as string | undefined });
    }
    const ok = answers.filter((a) => a.status === 201);
    // 60 requests a minute per key (the tightest rule of the two) allows 60.
    expect(ok).toHaveLength(60);
    expect(ok.map((a) => a.remaining)).toEqual(Array.from({ length: 60 }, (_, i) => 59 - i));
    expect(ok.filter((a) => a.fast).length).toBeGreaterThan(45); // most from the reserve in memory
    expect(answers.slice(60).map((a) => [a.status, a.error])).toEqual([
      [429, 'rate_limited'],
      [429, 'rate_limited'],
    ]);
    const stored = await t.db.query<{ n: string }>(
      "select count(*)::text as n from domains where hostname like 'limit%.customer-a.com'",
    );
    expect(stored[0].n).toBe('60');
  });

  it('leaves Idempotency-Keys, cold and unknown keys and connect-session tokens to the pipeline', async () => {
    const { key } = await workspace();
    const cold = await create(key, { hostname: 'cold.customer-a.com', originUrl: ORIGIN_URL });
    expect([cold.res.status, cold.fast]).toEqual([201, false]);
    const body = { hostname: 'idem.customer-a.com', originUrl: ORIGIN_URL };
    const first = await create(key, body, { 'idempotency-key': 'k1' });
    const replay = await create(key, body, { 'idempotency-key': 'k1' });
    expect([first.res.status, first.fast, replay.res.status, replay.fast]).toEqual([201, false, 201, false]);
    expect(replay.res.headers['idempotent-replay']).toBe('true');
    expect(replay.res.body).toEqual(first.res.body);
    const unknown = await create(`${key.slice(0, -4)}zzzz`, body);
    expect([unknown.res.status, unknown.fast]).toEqual([401, false]);
    const minted = await request(t.server)
      .post(`/v1/domains/${cold.res.body.domain.id}/connect-session`)
      .set(as(key))
      .send({})
      .expect(200);
    const session = await create(minted.body.connectSession.token as string, {
      hostname: 'session.customer-a.com',
      originUrl: ORIGIN_URL,
    });
    expect([session.res.status, session.fast]).toEqual([403, false]);
  });
});
