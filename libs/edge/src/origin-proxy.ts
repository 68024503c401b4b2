import { Inject, Injectable, Logger } from '@nestjs/common';
import * as http from 'node:http';
import * as https from 'node:https';
import { performance } from 'node:perf_hooks';
import { EdgeMetrics } from './edge.metrics';
import { downstreamHeaders } from './forwarded-headers';
import { Arrival, OriginRequest, ProxyDecision, armTimeouts, failure, originRequest } from './origin-request';
import { sendPage } from './respond';
import { EDGE_OPTIONS } from './edge.options';
import { SAFE_LOOKUP, SafeLookup } from './safe-lookup';

export interface ProxyOptions {
  allowCidrs: readonly string[];
  connectTimeoutMs: number;
  idleTimeoutMs: number;
  maxBodyBytes: number;
}

/** Idle pooled origin sockets close before common origin keep-alive timeouts (Node's 5 s) do. */
const POOL_IDLE_MS = 4_000;

const hasBody = (req: http.IncomingMessage) =>
  req.headers['transfer-encoding'] !== undefined || Number(req.headers['content-length'] ?? 0) > 0;

/**
 * Streams a request to its origin and the response back, over keep-alive pools whose sockets
 * only ever connect to addresses the SSRF lookup allowed. The body is limited to `maxBodyBytes`
 * (413); a bodiless request whose reused pooled socket the origin had just closed is retried once.
 */
@Injectable()
export class OriginProxy {
  private readonly logger = new Logger(OriginProxy.name);
  private readonly metrics = EdgeMetrics.get();
  private readonly agents = {
    http: new http.Agent({ keepAlive: true, timeout: POOL_IDLE_MS, scheduling: 'lifo' }),
    https: new https.Agent({ keepAlive: true, timeout: POOL_IDLE_MS, scheduling: 'lifo' }),
  };

  constructor(
    @Inject(SAFE_LOOKUP) private readonly lookup: SafeLookup,
    @Inject(EDGE_OPTIONS) private readonly options: ProxyOptions,
  ) {}

  forward(req: http.IncomingMessage, res: http.ServerResponse, decision: ProxyDecision, arrival: Arrival): void {
    if (Number(req.headers['content-length'] ?? 0) > this.options.maxBodyBytes) return this.tooLarge(req, res);
    let built: OriginRequest;
    try {
      built = originRequest(req, decision, arrival, { lookup: this.lookup, allowCidrs: this.options.allowCidrs });
    } catch (error) {
      return this.fail(res, error, decision);
    }
    this.send(req, res, built, decision, true);
  }

  close(): void {
    this.agents.http.destroy();
    this.agents.https.destroy();
  }

  private send(
    req: http.IncomingMessage,
    res: http.ServerResponse,
    built: OriginRequest,
    decision: ProxyDecision,
    mayRetry: boolean,
  ): void {
    const started = performance.now();
    const agent = built.secure ? this.agents.https : this.agents.http;
    const upstream = (built.secure ? https : http).request({ ...built.options, agent });
    armTimeouts(upstream, this.options.connectTimeoutMs, this.options.idleTimeoutMs);
    upstream.on('response', (answer) => {
      this.metrics.upstreamSeconds.observe((performance.now() - started) / 1000);
      this.metrics.requests.inc({ outcome: 'proxied' });
      res.writeHead(answer.statusCode ?? 502, downstreamHeaders(answer.headers));
      answer.pipe(res);
      answer.on('error', () => res.destroy());
    });
    let refused = false;
    upstream.on('error', (error: NodeJS.ErrnoException) => {
      if (refused) return;
      if (mayRetry && upstream.reusedSocket && error.code === 'ECONNRESET' && !hasBody(req) && !res.headersSent) {
        return this.send(req, res, built, decision, false);
      }
      if (res.headersSent) return void res.destroy();
      this.fail(res, error, decision);
    });
    res.once('close', () => {
      if (!res.writableFinished) upstream.destroy();
    });
    if (!hasBody(req)) return void upstream.end();
    let received = 0;
    const count = (chunk: Buffer) => {
      received += chunk.length;
      if (received <= this.options.maxBodyBytes) return;
      refused = true;
      req.off('data', count);
      upstream.destroy();
      this.tooLarge(req, res);
    };
    req.on('data', count);
    req.pipe(upstream);
  }

  private tooLarge(req: http.IncomingMessage, res: http.ServerResponse): void {
    req.unpipe();
    if (res.headersSent) return void res.destroy();
    this.metrics.requests.inc({ outcome: 'too_large' });
    sendPage(res, 'too_large', true);
  }

  private fail(res: http.ServerResponse, error: unknown, decision: ProxyDecision): void {
    const { page, outcome } = failure(error);
    this.metrics.requests.inc({ outcome });
    this.logger.warn(
      { origin: decision.originUrl, outcome, reason: (error as Error).message },
      'Origin request failed',
    );
    sendPage(res, page);
  }
}
