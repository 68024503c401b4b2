import { createSocket } from 'node:dgram';
import { Resolver } from 'node:dns/promises';
import { connect } from 'node:net';
import * as dnsPacket from 'dns-packet';
import { DnsServer, startDnsServer } from './support/dns-server';

const longTxt = Array.from({ length: 8 }, (_, i) => `v=spf${i} ${'x'.repeat(240)}`);

describe('loopback DNS server', () => {
  let server: DnsServer;
  let resolver: Resolver;

  beforeAll(async () => {
    server = await startDnsServer({
      'Example.COM.': [
        { type: 'A', data: '203.0.113.10' },
        { type: 'AAAA', data: '2001:db8::10' },
        { type: 'TXT', data: 'hello world' },
        { type: 'MX', data: { preference: 10, exchange: 'mail.example.com' } },
        { type: 'NS', data: 'ns1.example.com' },
        { type: 'CAA', data: { flags: 0, tag: 'issue', value: 'letsencrypt.org' } },
        { type: 'CAA', data: { flags: 128, tag: 'tbs', value: 'unknown' } },
      ],
      'www.example.com': [{ type: 'CNAME', data: 'hop.example.com' }],
      'hop.example.com': [{ type: 'CNAME', data: 'edge.example.net' }],
      'edge.example.net': [{ type: 'A', data: '192.0.2.10' }],
      'outside.example.com': [{ type: 'CNAME', data: 'somewhere.else.test' }],
      'deep.sub.example.org': [{ type: 'A', data: '198.51.100.1' }],
      'big.example.com': longTxt.map((data) => ({ type: 'TXT' as const, data })),
      'split.example.com': [{ type: 'TXT', data: ['part one ', 'part two'] }],
    });
    resolver = new Resolver({ timeout: 2000, tries: 1 });
    resolver.setServers([server.address]);
  });

  afterAll(() => server.close());

  it('listens on a free loopback port', () => {
    expect(server.address).toBe(`127.0.0.1:${server.port}`);
    expect(server.port).toBeGreaterThan(0);
  });

  it('answers A, AAAA, TXT, MX, NS and CAA, case-insensitively', async () => {
    await expect(resolver.resolve4('example.com')).resolves.toEqual(['203.0.113.10']);
    await expect(resolver.resolve4('EXAMPLE.com.')).resolves.toEqual(['203.0.113.10']);
    await expect(resolver.resolve6('example.com')).resolves.toEqual(['2001:db8::10']);
    await expect(resolver.resolveTxt('example.com')).resolves.toEqual([['hello world']]);
    await expect(resolver.resolveMx('example.com')).resolves.toEqual([{ priority: 10, exchange: 'mail.example.com' }]);
    await expect(resolver.resolveNs('example.com')).resolves.toEqual(['ns1.example.com']);
    await expect(resolver.resolveCaa('example.com')).resolves.toEqual([
      { critical: 0, issue: 'letsencrypt.org' },
      { critical: 128, tbs: 'unknown' },
    ]);
  });

  it('answers a CNAME query with the CNAME', async () => {
    await expect(resolver.resolveCname('www.example.com')).resolves.toEqual(['hop.example.com']);
  });

  it('follows a CNAME chain to the address', async () => {
    await expect(resolver.resolve4('www.example.com')).resolves.toEqual(['192.0.2.10']);
  });

  it('says NXDOMAIN for unknown names and NODATA for known names without the type', async () => {
    await expect(resolver.resolve4('missing.example.com')).rejects.toMatchObject({ code: 'ENOTFOUND' });
    await expect(resolver.resolveCaa('www.example.net')).rejects.toMatchObject({ code: 'ENOTFOUND' });
    await expect(resolver.resolveCaa('edge.example.net')).rejects.toMatchObject({ code: 'ENODATA' });
    await expect(resolver.resolve4('sub.example.org')).rejects.toMatchObject({ code: 'ENODATA' }); // empty non-terminal
    // a CNAME out of the server's names: NOERROR with just the CNAME, so no address
    await expect(resolver.resolve4('outside.example.com')).resolves.toEqual([]);
  });

  it('keeps the character-strings of one TXT record apart', async () => {
    await expect(resolver.resolveTxt('split.example.com')).resolves.toEqual([['part one ', 'part two']]);
  });

  it('truncates large UDP answers so the resolver retries over TCP', async () => {
    const udpReply = await new Promise<Buffer>((resolve, reject) => {
      const socket = createSocket('udp4');
      socket.once('message', (message) => socket.close(() => resolve(message)));
      socket.once('error', reject);
      socket.send(
        dnsPacket.encode({ type: 'query', id: 7, questions: [{ type: 'TXT', name: 'big.example.com' }] }),
        server.port,
        '127.0.0.1',
      );
    });
    expect(dnsPacket.decode(udpReply)).toMatchObject({ id: 7, flag_tc: true, answers: [] });
    const records = await resolver.resolveTxt('big.example.com');
    expect(records.map((chunks) => chunks.join('')).sort()).toEqual(longTxt);
  });

  it('speaks TCP with a 2-byte length prefix and sets the AA flag', async () => {
    const query = dnsPacket.streamEncode({
      type: 'query',
      id: 4242,
      flags: dnsPacket.RECURSION_DESIRED,
      questions: [{ type: 'CAA', name: 'example.com' }],
    });
    const reply = await new Promise<Buffer>((resolve, reject) => {
      const socket = connect(server.port, '127.0.0.1', () => socket.write(query));
      let data = Buffer.alloc(0);
      socket.on('data', (chunk) => {
        data = Buffer.concat([data, chunk]);
        if (data.length >= 2 && data.length >= 2 + data.readUInt16BE(0)) {
          socket.end();
          resolve(data);
        }
      });
      socket.on('error', reject);
    });
    const response = dnsPacket.decode(reply.subarray(2));
    expect(response).toMatchObject({ id: 4242, flag_aa: true, flag_rd: true, rcode: 'NOERROR' });
    expect(response.answers?.map((answer) => answer.type)).toEqual(['CAA', 'CAA']);
  });

  it('changes records at run time', async () => {
    server.setRecords('new.example.com', [{ type: 'A', data: '203.0.113.77' }]);
    await expect(resolver.resolve4('new.example.com')).resolves.toEqual(['203.0.113.77']);
    server.setRecords('new.example.com', [{ type: 'CNAME', data: 'edge.example.net' }]);
    await expect(resolver.resolve4('new.example.com')).resolves.toEqual(['192.0.2.10']);
    server.setRecords('new.example.com.', []);
    await expect(resolver.resolve4('new.example.com')).rejects.toMatchObject({ code: 'ENOTFOUND' });
  });

  it('answers SERVFAIL for a name set failing, then normally again', async () => {
    server.setServfail('Example.com.');
    await expect(resolver.resolve4('example.com')).rejects.toMatchObject({ code: 'ESERVFAIL' });
    await expect(resolver.resolveNs('example.com')).rejects.toMatchObject({ code: 'ESERVFAIL' });
    await expect(resolver.resolve4('edge.example.net')).resolves.toEqual(['192.0.2.10']);
    server.setServfail('example.com', false);
    await expect(resolver.resolve4('example.com')).resolves.toEqual(['203.0.113.10']);
  });

  it('answers a missing name from the wildcard one label up, and an existing name from its own records', async () => {
    server.setRecords('*.wild.example.com', [{ type: 'CNAME', data: 'edge.example.net' }]);
    server.setRecords('own.wild.example.com', [{ type: 'A', data: '198.51.100.7' }]);
    expect(await resolver.resolve4('anything.wild.example.com')).toEqual(['192.0.2.10']);
    expect(await resolver.resolve4('own.wild.example.com')).toEqual(['198.51.100.7']);
    await expect(resolver.resolve4('two.labels.wild.example.com')).rejects.toMatchObject({ code: 'ENOTFOUND' });
  });

  it('follows a CNAME into a delegated zone by asking the server of that zone', async () => {
    const zoneServer = await startDnsServer({ 'abc.acme.example.net': [{ type: 'TXT', data: 'token-value' }] });
    try {
      server.delegate('acme.example.net', zoneServer.address);
      server.setRecords('_acme-challenge.shop.example.com', [{ type: 'CNAME', data: 'abc.acme.example.net' }]);
      expect(await resolver.resolveTxt('_acme-challenge.shop.example.com')).toEqual([['token-value']]);
      expect(zoneServer.queries.map((q) => [q.name, q.type])).toEqual([['abc.acme.example.net', 'TXT']]);
    } finally {
      await zoneServer.close();
    }
  });
});
