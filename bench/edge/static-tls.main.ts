import { readFileSync } from 'node:fs';
import { createServer } from 'node:tls';

/** Baseline of the handshake benchmark: a plain Node TLS server with one static certificate. */
const server = createServer(
  {
    cert: readFileSync(process.env.CERT_FILE ?? '', 'utf8'),
    key: readFileSync(process.env.KEY_FILE ?? '', 'utf8'),
    minVersion: 'TLSv1.2',
    ALPNProtocols: ['http/1.1'],
  },
  (socket) => socket.end(),
);
server.on('tlsClientError', (_error, socket) => socket.destroy());
server.listen(0, '127.0.0.1', () => {
  process.stdout.write(`static tls ready on ${(server.address() as { port: number }).port}\n`);
});
process.stdin.once('end', () => process.exit(0)).resume();
process.once('SIGTERM', () => process.exit(0));
