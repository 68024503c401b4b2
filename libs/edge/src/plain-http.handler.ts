import { Inject, Injectable, Logger } from '@nestjs/common';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import { ACME_CHALLENGE_PREFIX, AcmeChallengeStore } from './acme-challenge.store';
import { cidrMatcher } from './cidr-matcher';
import { EdgeMetrics } from './edge.metrics';
import { EDGE_OPTIONS, EdgeOptions } from './edge.options';
import { Arrival } from './origin-request';
import { sendPage, sendText } from './respond';
import { TrafficHandler } from './traffic.handler';
import { WebSocketProxy } from './websocket-proxy';

/**
 * The HTTP port: ACME HTTP-01 challenges for any Host, then the visitor's request as plain HTTP
 * (served domains redirect to HTTPS). A request from a trusted proxy (Caddy terminating TLS in
 * front of the edge) with `X-Forwarded-Proto: https` is served as HTTPS traffic.
 */
@Injectable()
export class PlainHttpHandler {
  private readonly logger = new Logger(PlainHttpHandler.name);
  private readonly metrics = EdgeMetrics.get();
  private readonly trusted: (address: string | undefined) => boolean;

  constructor(
    private readonly challenges: AcmeChallengeStore,
    private readonly traffic: TrafficHandler,
    private readonly websockets: WebSocketProxy,
    @Inject(EDGE_OPTIONS) options: EdgeOptions,
  ) {
    this.trusted = cidrMatcher(options.trustedProxyCidrs);
  }

  handle(req: IncomingMessage, res: ServerResponse): void {
    const url = req.url ?? '';
    if (url.startsWith(ACME_CHALLENGE_PREFIX)) return this.challenge(url.slice(ACME_CHALLENGE_PREFIX.length), res);
    this.traffic.handle(req, res, this.arrival(req));
  }

  upgrade(req: IncomingMessage, socket: Duplex, head: Buffer): void {
    this.websockets.handle(req, socket, head, this.arrival(req));
  }

  private arrival(req: IncomingMessage): Arrival {
    const viaProxy = req.headers['x-forwarded-proto'] === 'https' && this.trusted(req.socket.remoteAddress);
    return { scheme: viaProxy ? 'https' : 'http', trustedProxy: viaProxy };
  }

  private challenge(token: string, res: ServerResponse): void {
    this.challenges.keyAuthorization(token.split('?')[0]).then(
      (keyAuthorization) => {
        this.metrics.requests.inc({ outcome: keyAuthorization ? 'acme_challenge' : 'acme_challenge_missing' });
        if (keyAuthorization) sendText(res, 200, keyAuthorization);
        else sendText(res, 404, 'Not found\n');
      },
      (error: unknown) => {
        this.logger.error({ err: error }, 'ACME challenge lookup failed');
        this.metrics.requests.inc({ outcome: 'edge_error' });
        sendPage(res, 'unavailable');
      },
    );
  }
}
