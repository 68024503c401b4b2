import { Injectable, Logger } from '@nestjs/common';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { EdgeMetrics } from './edge.metrics';
import { EdgeRouter } from './edge-router';
import { Arrival } from './origin-request';
import { OriginProxy } from './origin-proxy';
import { sendPage, sendRedirect } from './respond';

/** Answers a visitor's request: a page, a redirect, or the origin's answer through the proxy. */
@Injectable()
export class TrafficHandler {
  private readonly logger = new Logger(TrafficHandler.name);
  private readonly metrics = EdgeMetrics.get();

  constructor(
    private readonly router: EdgeRouter,
    private readonly proxy: OriginProxy,
  ) {}

  handle(req: IncomingMessage, res: ServerResponse, arrival: Arrival): void {
    this.router.decide(req, arrival).then(
      (decision) => {
        switch (decision.kind) {
          case 'page':
            this.metrics.requests.inc({ outcome: decision.page });
            return sendPage(res, decision.page);
          case 'redirect':
            this.metrics.requests.inc({ outcome: decision.outcome });
            return sendRedirect(res, decision.status, decision.location);
          case 'proxy':
            return this.proxy.forward(req, res, decision, arrival);
        }
      },
      (error: unknown) => {
        this.logger.error({ err: error, host: req.headers.host }, 'Route lookup failed');
        this.metrics.requests.inc({ outcome: 'edge_error' });
        if (!res.headersSent) sendPage(res, 'unavailable');
      },
    );
  }
}
