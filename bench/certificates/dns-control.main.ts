import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { DnsRecord, DnsZones } from '../../test/support/dns-server';
import { requireSource } from '../lib/source';

/**
 * The loopback DNS server of test/support (UDP and TCP, authoritative, a query log) in a process of
 * its own, whose records the benchmark changes while it runs (a customer fixing DNS). Zones come
 * from the JSON file DNS_ZONES_FILE. Control port (HTTP on 127.0.0.1):
 * - `POST /records` `{name, records}` replaces a name's records; answers `{at}`, the epoch ms at which
 *   the server answers the new records (the change is made before the answer is sent);
 * - `GET /log?suffix=&types=CNAME,CAA` the questions so far (name, type, at) for names ending in
 *   `suffix`, of those types, as `[name, type, at]` triples;
 * - `GET /stats` questions so far and by type.
 */
type DnsServerModule = typeof import('../../test/support/dns-server');
type HttpFakeModule = typeof import('../../test/fakes/http-fake');

async function main(): Promise<void> {
  const { startDnsServer } = requireSource<DnsServerModule>('test/support/dns-server');
  const { readBody } = requireSource<HttpFakeModule>('test/fakes/http-fake');
  const file = process.env.DNS_ZONES_FILE;
  const zones = file ? (JSON.parse(readFileSync(file, 'utf8')) as DnsZones) : {};
  const dns = await startDnsServer(zones);
  const control = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    const reply = (status: number, body: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(body));
    };
    if (req.method === 'POST' && url.pathname === '/records') {
      void readBody(req).then((text) => {
        try {
          const { name, records } = JSON.parse(text) as { name: string; records: DnsRecord[] };
          dns.setRecords(name, records);
          reply(200, { at: Date.now() });
        } catch (error) {
          reply(400, { error: String(error) });
        }
      });
      return;
    }
    if (url.pathname === '/log') {
      const suffix = (url.searchParams.get('suffix') ?? '').toLowerCase();
      const types = new Set((url.searchParams.get('types') ?? '').split(',').filter(Boolean));
      const out: [string, string, number][] = [];
      for (const q of dns.queries) {
        if (suffix && !q.name.endsWith(suffix)) continue;
        if (types.size && !types.has(q.type)) continue;
        out.push([q.name, q.type, q.at]);
      }
      return reply(200, out);
    }
    const byType: Record<string, number> = {};
    for (const q of dns.queries) byType[q.type] = (byType[q.type] ?? 0) + 1;
    reply(200, { queries: dns.queries.length, byType });
  });
  control.listen(0, '127.0.0.1', () => {
    const port = (control.address() as { port: number }).port;
    process.stdout.write(`dns ready on ${dns.address} control ${port}\n`);
  });
  const stop = () => void dns.close().finally(() => process.exit(0));
  process.once('SIGTERM', stop);
  process.stdin.once('end', stop).resume();
}

main().catch((error: unknown) => {
  process.stderr.write(`dns server failed: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
