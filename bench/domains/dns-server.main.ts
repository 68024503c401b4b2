import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { DnsZones } from '../../test/support/dns-server';
import { requireSource } from '../lib/source';

/**
 * The loopback DNS server of test/support (UDP and TCP, authoritative, a query log) as a process of
 * its own, so it has a core to itself rather than sharing the benchmark's event loop. Zones come
 * from the JSON file DNS_ZONES_FILE; `GET /stats` on the control port counts the questions so far.
 */
type DnsServerModule = typeof import('../../test/support/dns-server');

async function main(): Promise<void> {
  const { startDnsServer } = requireSource<DnsServerModule>('test/support/dns-server');
  const file = process.env.DNS_ZONES_FILE;
  const zones = file ? (JSON.parse(readFileSync(file, 'utf8')) as DnsZones) : {};
  const dns = await startDnsServer(zones);
  const control = createServer((req, res) => {
    const query = new URL(req.url ?? '/', 'http://localhost').searchParams;
    const byType: Record<string, number> = {};
    for (const q of dns.queries) byType[q.type] = (byType[q.type] ?? 0) + 1;
    const body: Record<string, unknown> = { queries: dns.queries.length, byType };
    // ?from=&to= (epoch ms): how evenly the questions of that window spread over its 100 ms slots.
    const from = Number(query.get('from'));
    const to = Number(query.get('to'));
    if (from && to > from) {
      const slots = new Set<number>();
      let count = 0;
      for (const q of dns.queries) {
        if (q.at < from || q.at >= to) continue;
        count++;
        slots.add(Math.floor((q.at - from) / 100));
      }
      body.window = { queries: count, slots: Math.ceil((to - from) / 100), slotsWithQueries: slots.size };
    }
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify(body));
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
