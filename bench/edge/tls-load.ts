import { connect as netConnect } from 'node:net';
import { connect as tlsConnect, createSecureContext } from 'node:tls';
import type { Socket } from 'node:net';
import { performance } from 'node:perf_hooks';

/**
 * A lean HTTP/1.1 keep-alive client for load: one request in flight per connection, responses
 * delimited by Content-Length (what the origin sends and both proxies keep). Lighter than
 * node:http's client, so the load generator is less of the bottleneck on a small machine.
 */
export class KeepAliveConnection {
  private buffered: Buffer = Buffer.alloc(0);
  private waiting?: { resolve: (status: number) => void; reject: (error: Error) => void };

  private constructor(
    private readonly socket: Socket,
    private readonly request: Buffer,
  ) {
    socket.on('data', (chunk: Buffer) => {
      this.buffered = this.buffered.length ? Buffer.concat([this.buffered, chunk]) : chunk;
      this.parse();
    });
    const fail = (error: Error) => this.waiting?.reject(error);
    socket.on('error', fail);
    socket.on('close', () => fail(new Error('connection closed')));
  }

  static open(target: { port: number; hostname: string; tls: boolean; path?: string }): Promise<KeepAliveConnection> {
    const request = Buffer.from(`GET ${target.path ?? '/'} HTTP/1.1\r\nHost: ${target.hostname}\r\n\r\n`);
    return new Promise((resolve, reject) => {
      const socket: Socket = target.tls
        ? tlsConnect(
            { host: '127.0.0.1', port: target.port, servername: target.hostname, rejectUnauthorized: false },
            () => resolve(new KeepAliveConnection(socket, request)),
          )
        : netConnect(target.port, '127.0.0.1', () => resolve(new KeepAliveConnection(socket, request)));
      socket.setNoDelay(true);
      socket.once('error', reject);
    });
  }

  /** Sends the request and resolves with the status once the whole response arrived. */
  get(): Promise<number> {
    return new Promise((resolve, reject) => {
      this.waiting = { resolve, reject };
      this.socket.write(this.request);
    });
  }

  close(): void {
    this.socket.destroy();
  }

  private parse(): void {
    const end = this.buffered.indexOf('\r\n\r\n');
    if (end === -1 || !this.waiting) return;
    const head = this.buffered.toString('latin1', 0, end);
    const length = /\r\ncontent-length:\s*(\d+)/i.exec(head);
    if (!length) return this.waiting.reject(new Error(`No Content-Length in: ${head.split('\r\n')[0]}`));
    const total = end + 4 + Number(length[1]);
    if (this.buffered.length < total) return;
    this.buffered = this.buffered.subarray(total);
    const waiting = this.waiting;
    this.waiting = undefined;
    waiting.resolve(Number(head.slice(9, 12)));
  }
}

/** One client context for every connection: building one per connection (the default) costs more than the handshake. */
const clientContext = createSecureContext({});

/** One full TLS handshake on a new connection (no session resumption); resolves once secure. */
export function handshake(port: number, servername: string, fingerprint = false): Promise<string | undefined> {
  return new Promise((resolve, reject) => {
    const options = { host: '127.0.0.1', port, servername, rejectUnauthorized: false, secureContext: clientContext };
    const socket = tlsConnect(options, () => {
      const presented = fingerprint ? socket.getPeerCertificate().fingerprint256 : undefined;
      socket.destroy();
      resolve(presented);
    });
    socket.once('error', reject);
  });
}

/**
 * Open-loop load at a fixed rate spread over keep-alive connections (each paced at rate / n), so
 * latency is measured below saturation: what the proxy adds, not how long requests queue.
 */
export async function pacedLoop(connections: KeepAliveConnection[], perSecond: number, durationMs: number) {
  const latencies: number[] = [];
  let errors = 0;
  const interval = (connections.length * 1000) / perSecond;
  const started = performance.now();
  await Promise.all(
    connections.map(async (connection, i) => {
      for (let next = started + (i * interval) / connections.length; next < started + durationMs; next += interval) {
        const wait = next - performance.now();
        if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
        const t0 = performance.now();
        const status = await connection.get().catch(() => 0);
        if (status === 200) latencies.push(performance.now() - t0);
        else errors++;
      }
    }),
  );
  return { latencies, errors };
}
