import { createServer } from 'node:http';

/** The loopback origin of the edge benchmarks: a fixed 256-byte answer, keep-alive. */
const body = Buffer.from(`${JSON.stringify({ ok: true, pad: 'x'.repeat(230) })}\n`.slice(0, 256));
const server = createServer((req, res) => {
  req.resume();
  req.on('end', () => {
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': body.length });
    res.end(body);
  });
});
server.keepAliveTimeout = 60_000;
server.listen(0, '127.0.0.1', () => {
  process.stdout.write(`origin ready on ${(server.address() as { port: number }).port}\n`);
});
process.stdin.once('end', () => process.exit(0)).resume();
process.once('SIGTERM', () => process.exit(0));
