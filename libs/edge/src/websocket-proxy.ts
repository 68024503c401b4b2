import { Inject, Injectable, Logger } from '@nestjs/common';
import * as http from 'node:http';
import * as https from 'node:https';
import type { Duplex } from 'node:stream';
import { EdgeMetrics } from './edge.metrics';
import { EdgeRouter } from './edge-router';
import { Arrival, ProxyDecision, armTimeouts, failure, originRequest } from './origin-request';
import { writeRaw, writeRawPage } from './respond';
import { EDGE_OPTIONS } from './edge.options';
import { SAFE_LOOKUP, SafeLookup } from './safe-lookup';

export interface UpgradeOptions {
  allowCidrs: readonly string[];
  connectTimeoutMs: number;
  idleTimeoutMs: number;
}

const head = (status: number, rawHeaders: string[]) => {
  const lines = [`HTTP/1.1 ${status} ${http.STATUS_CODES[status] ?? ''}`];
  for (let i = 0; i < rawHeaders.length; i += 2) lines.push(`${rawHeaders[i]}: ${rawHeaders[i + 1]}`);
  return `${lines.join('\r\n')}\r\n\r\n`;
};

/**
 * WebSocket upgrades: the same routing as requests, then a connection to the origin through the
 * SSRF-checking lookup, the origin's 101 relayed, and bytes piped both ways until either side
 * closes. Only `Upgrade: websocket` is passed (no h2c smuggling). Open tunnels have no idle limit.
 */
@Injectable()
export class WebSocketProxy {
  private readonly logger = new Logger(WebSocketProxy.name);
  private readonly metrics = EdgeMetrics.get();
  private readonly open = new Set<Duplex>();

  constructor(
    private readonly router: EdgeRouter,
    @Inject(SAFE_LOOKUP) private readonly lookup: SafeLookup,
    @Inject(EDGE_OPTIONS) private readonly options: UpgradeOptions,
  ) {}

  handle(req: http.IncomingMessage, socket: Duplex, clientHead: Buffer, arrival: Arrival): void {
    socket.on('error', () => socket.destroy());
    this.router.decide(req, arrival).then(
      (decision) => {
        if (decision.kind === 'page') {
          this.metrics.requests.inc({ outcome: decision.page });
          return writeRawPage(socket, decision.page);
        }
        if (decision.kind === 'redirect') {
          this.metrics.requests.inc({ outcome: decision.outcome });
          return writeRaw(socket, decision.status, { location: decision.location });
        }
        if (String(req.headers.upgrade).toLowerCase() !== 'websocket') {
          this.metrics.requests.inc({ outcome: 'bad_request' });
          return writeRawPage(socket, 'bad_request');
        }
        this.tunnel(req, socket, clientHead, decision, arrival);
      },
      (error: unknown) => {
        this.logger.error({ err: error, host: req.headers.host }, 'Route lookup failed');
        this.metrics.requests.inc({ outcome: 'edge_error' });
        writeRawPage(socket, 'unavailable');
      },
    );
  }

  private tunnel(
    req: http.IncomingMessage,
    socket: Duplex,
    clientHead: Buffer,
    decision: ProxyDecision,
    arrival: Arrival,
  ) {
    let built;
    try {
      built = originRequest(
        req,
        decision,
        arrival,
        { lookup: this.lookup, allowCidrs: this.options.allowCidrs },
        'websocket',
      );
    } catch (error) {
      return this.fail(socket, error, decision);
    }
    const upstream = (built.secure ? https : http).request({ ...built.options, agent: false });
    armTimeouts(upstream, this.options.connectTimeoutMs, this.options.idleTimeoutMs);
    let upgraded = false;
    socket.once('close', () => upstream.destroy());
    upstream.on('upgrade', (answer, originSocket, originHead) => {
      upgraded = true;
      this.metrics.requests.inc({ outcome: 'websocket' });
      originSocket.setTimeout(0);
      if ('setTimeout' in socket) (socket as unknown as { setTimeout(ms: number): void }).setTimeout(0);
      socket.write(head(101, answer.rawHeaders));
      if (originHead.length) socket.write(originHead);
      if (clientHead.length) originSocket.write(clientHead);
      this.open.add(socket);
      const close = () => (this.open.delete(socket), socket.destroy(), originSocket.destroy());
      originSocket.on('error', close).on('close', close);
      socket.on('close', close);
      originSocket.pipe(socket).pipe(originSocket);
    });
    upstream.on('response', (answer) => {
      // The origin refused the upgrade: relay its answer, delimited by closing the connection.
      this.metrics.requests.inc({ outcome: 'proxied' });
      const raw = answer.rawHeaders.filter(
        (_, i, all) => !/^(connection|transfer-encoding|content-length)$/i.test(all[i - (i % 2)]),
      );
      socket.write(head(answer.statusCode ?? 502, [...raw, 'connection', 'close']));
      answer.pipe(socket);
    });
    upstream.on('error', (error) => {
      if (!upgraded) this.fail(socket, error, decision);
    });
    upstream.end();
  }

  /** Cuts every open tunnel (shutdown). */
  closeAll(): void {
    this.open.forEach((socket) => socket.destroy());
  }

  private fail(socket: Duplex, error: unknown, decision: ProxyDecision): void {
    const { page, outcome } = failure(error);
    this.metrics.requests.inc({ outcome });
    this.logger.warn(
      { origin: decision.originUrl, outcome, reason: (error as Error).message },
      'Origin upgrade failed',
    );
    writeRawPage(socket, page);
  }
}
