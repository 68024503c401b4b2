import { NatsBus } from '@app/bus';
import type { Answer, RecordType } from 'dns-packet';
import { connect, Socket } from 'node:net';
import { DNS_CHALLENGE_CHANGED_SUBJECT } from '@app/kernel';
import {
  clusterProcessEnv,
  eventually,
  freePort,
  PrivatePostgres,
  ServiceProcess,
  sleep,
  startPrivatePostgres,
  startProcess,
  stopAllProcesses,
  TEST_NATS_URL,
  uniqueSubjectPrefix,
  waitForUrl,
} from './support';
import { dnsQuery, tcpExchange, udpAsk, udpExchange } from './support/dns-client';

/** A TCP connection from `from`, open (no query sent). */
function tcpConnection(port: number, from: string): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const socket = connect({ port, host: '127.0.0.1', localAddress: from }, () => resolve(socket));
    socket.once('error', reject);
  });
}

/** A record as the test compares it: owner name, type, TTL and its data as text. */
function presented(record: Answer) {
  const data = 'data' in record ? record.data : undefined;
  const value = Array.isArray(data)
    ? data.map(String).join('')
    : typeof data === 'string'
      ? data
      : JSON.stringify(data);
  return { name: record.name, type: record.type, ttl: 'ttl' in record ? record.ttl : undefined, value };
}

/**
 * The challenge zone's DNS listener in a real edge process (dist/apps/edge), reading a real
 * PostgreSQL of the test's own (so it can crash it) and told of changes over the real NATS.
 */
describe('challenge zone DNS listener (edge process, PostgreSQL, NATS)', () => {
  const zone = 'acme.saas-test.net';
  const prefix = uniqueSubjectPrefix();
  const QPS = 100;
  let pg: PrivatePostgres;
  let bus: NatsBus;
  let edge: ServiceProcess;
  let port: number;
  let url: string;

  let nextId = 1;
  /** One question over UDP, the answer as a client reads it. */
  const ask = async (name: string, type: RecordType = 'TXT', recursive = false) => {
    const response = await udpAsk(port, dnsQuery(nextId++ & 0xffff, name, type, { recursive }));
    return {
      rcode: (response as unknown as { rcode: string }).rcode,
      authoritative: response.flag_aa,
      recursionAvailable: response.flag_ra,
      answers: (response.answers ?? []).map(presented),
      authorities: (response.authorities ?? []).map(presented),
    };
  };
  const values = async (name: string) => (await ask(name)).answers.map((answer) => answer.value).sort();
  const publish = (name: string) => bus.publish(DNS_CHALLENGE_CHANGED_SUBJECT, { name });
  const insert = (token: string, name: string, value: string, expires = "now() + interval '10 minutes'") =>
    pg.query(`insert into acme_dns_challenges (token, name, value, expires_at) values ($1, $2, $3, ${expires})`, [
      token,
      name,
      value,
    ]);

  beforeAll(async () => {
    pg = await startPrivatePostgres();
    const env = { ...clusterProcessEnv(pg.url, prefix), LOG_LEVEL: 'info' };
    const migrate = startProcess('dist/libs/persistence/src/migrate.main.js', env);
    expect([await migrate.exited, migrate.output()]).toEqual([0, expect.anything()]);
    port = await freePort();
    edge = startProcess('dist/apps/edge/src/main.js', {
      ...env,
      EDGE_HTTP_PORT: String(await freePort()),
      EDGE_HTTPS_PORT: String(await freePort()),
      EDGE_CNAME_TARGET: 'edge.saas-test.net',
      ACME_CHALLENGE_ZONE: zone,
      ACME_CHALLENGE_NAMESERVERS: 'ns1.saas-test.net,ns2.saas-test.net',
      ACME_CHALLENGE_DNS_PORT: String(port),
      ACME_CHALLENGE_DNS_QPS: String(QPS),
    });
    url = await waitForUrl(edge);
    bus = await NatsBus.connect([TEST_NATS_URL], 'challenge-dns-test', prefix);
  }, 180_000);

  afterAll(async () => {
    await bus?.close();
    await stopAllProcesses();
    await pg?.destroy();
  });

  it('answers a published challenge over UDP and TCP, authoritative, with no recursion offered', async () => {
    await insert('t-published', `c1.${zone}`, 'value-one');
    publish(`c1.${zone}`);
    const udp = await ask(`C1.Acme.Saas-Test.Net`);
    expect([udp.rcode, udp.authoritative, udp.recursionAvailable, udp.answers]).toEqual([
      'NOERROR',
      true,
      false,
      [{ name: 'C1.Acme.Saas-Test.Net', type: 'TXT', ttl: 10, value: 'value-one' }],
    ]);
    const { responses } = await tcpExchange(port, [dnsQuery(1, `c1.${zone}`, 'TXT'), dnsQuery(2, zone, 'NS')]);
    expect(responses.map((r) => [r.id, r.flag_aa, r.flag_ra])).toEqual([
      [1, true, false],
      [2, true, false],
    ]);
    expect((responses[0].answers![0] as { data: Buffer[] }).data.map(String)).toEqual(['value-one']);
    expect(responses[1].answers!.map((a) => (a as { data: string }).data)).toEqual([
      'ns1.saas-test.net',
      'ns2.saas-test.net',
    ]);
  });

  it('finds a challenge written a moment ago whose bus message has not come (a miss reloads the copy)', async () => {
    await insert('t-unannounced', `c2.${zone}`, 'value-two');
    expect(await values(`c2.${zone}`)).toEqual(['value-two']);
  });

  it('answers a second value at a known name, and stops answering a withdrawn one, once the bus says so', async () => {
    await insert('t-base', `c3.${zone}`, 'for-the-base');
    publish(`c3.${zone}`);
    expect(await values(`c3.${zone}`)).toEqual(['for-the-base']);
    await insert('t-wildcard', `c3.${zone}`, 'for-the-wildcard');
    publish(`c3.${zone}`);
    await eventually(
      () => values(`c3.${zone}`),
      (v) => v.length === 2,
      { timeoutMs: 10_000, everyMs: 50 },
    );
    await pg.query(`delete from acme_dns_challenges where token = 't-base'`);
    publish(`c3.${zone}`);
    const left = await eventually(
      () => values(`c3.${zone}`),
      (v) => v.length === 1,
      { timeoutMs: 10_000, everyMs: 50 },
    );
    expect(left).toEqual(['for-the-wildcard']);
  });

  it('never answers an expired challenge', async () => {
    await insert('t-expired', `c4.${zone}`, 'too-late', "now() - interval '1 second'");
    publish(`c4.${zone}`);
    const expired = await ask(`c4.${zone}`);
    expect([expired.rcode, expired.answers, expired.authorities[0]?.type]).toEqual(['NOERROR', [], 'SOA']);
  });

  it('refuses names outside the zone, recursion desired or not', async () => {
    for (const name of ['www.example.com', 'saas-test.net', `x.not${zone}`]) {
      for (const recursive of [true, false]) {
        const answer = await ask(name, 'A', recursive);
        expect([name, answer.rcode, answer.authoritative, answer.recursionAvailable, answer.answers]).toEqual([
          name,
          'REFUSED',
          false,
          false,
          [],
        ]);
      }
    }
  });

  it('answers TC over UDP when the values do not fit the client size, and all of them over TCP', async () => {
    const name = `big.${zone}`;
    for (let i = 0; i < 25; i++) await insert(`t-big-${i}`, name, `${i}`.padStart(43, 'v'));
    publish(name);
    const over = await eventually(
      () => udpAsk(port, dnsQuery(nextId++, name, 'TXT', { edns: false })),
      (r) => r.flag_tc,
      { timeoutMs: 10_000, everyMs: 50, what: 'a truncated answer' },
    );
    expect([over.flag_aa, over.answers]).toEqual([true, []]);
    expect((await udpAsk(port, dnsQuery(nextId++, name, 'TXT'))).flag_tc).toBe(true);
    const { responses } = await tcpExchange(port, [dnsQuery(nextId++, name, 'TXT')]);
    expect([responses[0].flag_tc, responses[0].answers!.length]).toEqual([false, 25]);
  });

  it('keeps a few TCP connections per address at once: one more is closed at once', async () => {
    const open = await Promise.all(Array.from({ length: 16 }, () => tcpConnection(port, '127.0.0.4')));
    try {
      const extra = await tcpConnection(port, '127.0.0.4');
      const closed = await new Promise<boolean>((resolve) => {
        extra.once('close', () => resolve(true));
        setTimeout(() => resolve(false), 2_000);
      });
      expect(closed).toBe(true);
      expect(open.every((socket) => !socket.destroyed)).toBe(true);
      // Another address still gets in, and a query on a held connection is still answered.
      expect((await tcpExchange(port, [dnsQuery(1, zone, 'SOA')])).responses).toHaveLength(1);
    } finally {
      open.forEach((socket) => socket.destroy());
    }
  });

  it('keeps answering from its copy while PostgreSQL is down, never a value that expired meanwhile, and logs it once', async () => {
    await insert('t-outage', `c6.${zone}`, 'survives');
    await insert('t-expiring', `c7.${zone}`, 'expires-in-the-outage', "now() + interval '5 seconds'");
    const expiring = Date.now() + 5_000;
    publish(`c6.${zone}`);
    expect(await values(`c6.${zone}`)).toEqual(['survives']);
    expect(await values(`c7.${zone}`)).toEqual(['expires-in-the-outage']);
    await pg.crash();
    try {
      for (let i = 0; i < 3; i++) publish(`c6.${zone}`);
      await eventually(
        () => edge.output(),
        (log) => log.includes('Could not reload'),
        { timeoutMs: 10_000 },
      );
      expect(await values(`c6.${zone}`)).toEqual(['survives']);
      const started = Date.now();
      expect(await values(`missing.${zone}`)).toEqual([]);
      // It waits for the failing reload at most missWaitMs (1 s), never for the database.
      expect(Date.now() - started).toBeLessThan(5_000);
      // The copy cannot be reloaded, so it still holds c7 when its time is up: the answer checks the time.
      await sleep(Math.max(0, expiring + 200 - Date.now()));
      expect(await values(`c7.${zone}`)).toEqual([]);
      expect(await values(`c6.${zone}`)).toEqual(['survives']);
      for (let i = 0; i < 3; i++) publish(`c6.${zone}`);
      await sleep(500);
      expect(edge.output().split('Could not reload').length - 1).toBe(1);
    } finally {
      await pg.start();
    }
    await eventually(
      () => edge.output(),
      (log) => log.includes('Reloaded the DNS-01 challenges again'),
      {
        timeoutMs: 15_000,
      },
    );
  }, 60_000);

  it('drops a UDP flood from one address beyond its rate, and closes a flooding TCP connection, serving others', async () => {
    await insert('t-flood', `flood.${zone}`, 'flooded');
    publish(`flood.${zone}`);
    expect(await values(`flood.${zone}`)).toEqual(['flooded']);
    const flood = Array.from({ length: 1_000 }, (_, id) => dnsQuery(id, `flood.${zone}`, 'TXT'));
    const started = Date.now();
    const answered = await udpExchange(port, flood, { from: '127.0.0.2', waitMs: 1_000, pause: { every: 10, ms: 5 } });
    const allowed = 2 * QPS + (QPS * (Date.now() - started)) / 1_000;
    expect(answered.length).toBeGreaterThanOrEqual(2 * QPS * 0.9);
    expect(answered.length).toBeLessThanOrEqual(allowed);
    // Another address is not held back by the flood.
    expect(await values(`flood.${zone}`)).toEqual(['flooded']);
    const tcp = await tcpExchange(port, flood.slice(0, 400), { from: '127.0.0.3', timeoutMs: 15_000 });
    expect(tcp.closedByServer).toBe(true);
    expect(tcp.responses.length).toBeGreaterThanOrEqual(2 * QPS * 0.9);
    expect(tcp.responses.length).toBeLessThan(400);
    const metrics = await (await fetch(`${url}/metrics`)).text();
    expect(metrics).toMatch(/challenge_dns_queries_total\{transport="udp",outcome="rate_limited"\} \d{3}/);
    expect(metrics).toMatch(/challenge_dns_queries_total\{transport="tcp",outcome="rate_limited"\} [1-9]\d*\n/);
    expect(metrics).toMatch(/challenge_dns_queries_total\{transport="udp",outcome="answered"\} \d+/);
  });
});
