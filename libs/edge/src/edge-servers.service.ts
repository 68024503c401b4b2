import { BeforeApplicationShutdown, Inject, Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import * as http from 'node:http';
import * as https from 'node:https';
import type { AddressInfo } from 'node:net';
import { EDGE_OPTIONS, EdgeOptions } from './edge.options';
import { EdgeMetrics } from './edge.metrics';
import { OriginProxy } from './origin-proxy';
import { PlainHttpHandler } from './plain-http.handler';
import { SniSelector } from './sni-selector';
import { TrafficHandler } from './traffic.handler';
import { WebSocketProxy } from './websocket-proxy';

const HTTPS = { scheme: 'https', trustedProxy: false } as const;
const DRAIN_MS = 5_000;

/** The traffic ports: HTTPS with SNI certificates, HTTP for challenges and redirects. */
@Injectable()
export class EdgeServers implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger(EdgeServers.name);
  private readonly metrics = EdgeMetrics.get();
  private http?: http.Server;
  private https?: https.Server;

  constructor(
    @Inject(EDGE_OPTIONS) private readonly options: EdgeOptions,
    private readonly plain: PlainHttpHandler,
    private readonly traffic: TrafficHandler,
    private readonly websockets: WebSocketProxy,
    private readonly sni: SniSelector,
    private readonly proxy: OriginProxy,
  ) {}

  /** The bound ports (useful when configured as 0). */
  ports(): { http: number; https: number } {
    const port = (s?: http.Server) => (s?.address() as AddressInfo | null)?.port ?? 0;
    return { http: port(this.http), https: port(this.https) };
  }

  async onApplicationBootstrap(): Promise<void> {
    const shared = { requestTimeout: 0, headersTimeout: 30_000 };
    this.http = http.createServer(shared, (req, res) => this.plain.handle(req, res));
    this.http.on('upgrade', (req: http.IncomingMessage, socket, head: Buffer) => this.plain.upgrade(req, socket, head));
    this.https = https.createServer(
      {
        ...shared,
        SNICallback: this.sni.callback,
        minVersion: 'TLSv1.2',
        ALPNProtocols: ['http/1.1'],
        handshakeTimeout: 10_000,
      },
      (req, res) => this.traffic.handle(req, res, HTTPS),
    );
    this.https.on('upgrade', (req: http.IncomingMessage, socket, head: Buffer) =>
      this.websockets.handle(req, socket, head, HTTPS),
    );
    this.https.on('secureConnection', () => this.metrics.handshakes.inc({ outcome: 'ok' }));
    this.https.on('tlsClientError', (_error, socket) => {
      this.metrics.handshakes.inc({ outcome: 'failed' });
      socket.destroy();
    });
    // Outlasts the origin's idle timeout, so a visitor waiting on a silent origin still gets the 504 page.
    for (const server of [this.http, this.https]) server.setTimeout(this.options.idleTimeoutMs + 5_000);
    await Promise.all([
      listen(this.http, this.options.httpPort, this.options.listenHost),
      listen(this.https, this.options.httpsPort, this.options.listenHost),
    ]);
    const { http: httpPort, https: httpsPort } = this.ports();
    this.logger.log(`Edge traffic on HTTP ${httpPort} and HTTPS ${httpsPort}`);
  }

  /** Stops taking connections, lets requests in flight finish for a moment, then cuts the rest. */
  async beforeApplicationShutdown(): Promise<void> {
    const servers = [this.http, this.https].filter((s): s is http.Server => !!s?.listening);
    const closed = servers.map((s) => new Promise<void>((resolve) => s.close(() => resolve())));
    servers.forEach((s) => s.closeIdleConnections());
    const timer = setTimeout(() => {
      servers.forEach((s) => s.closeAllConnections());
      this.websockets.closeAll();
    }, DRAIN_MS);
    // Sockets still in a TLS handshake are not HTTP connections yet; do not wait on them forever.
    await Promise.race([Promise.all(closed), new Promise((resolve) => setTimeout(resolve, DRAIN_MS + 1_000).unref())]);
    clearTimeout(timer);
    this.proxy.close();
  }
}

function listen(server: http.Server, port: number, host: string): Promise<void> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
}
