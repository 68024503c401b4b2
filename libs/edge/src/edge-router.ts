import { Injectable } from '@nestjs/common';
import type { IncomingMessage } from 'node:http';
import type { TLSSocket } from 'node:tls';
import { parseHost } from './host';
import { Arrival } from './origin-request';
import { Decision, decide } from './route-decision';
import { parseRequestTarget } from './request-target';
import { RouteStore } from './route.store';

/**
 * The decision for a request: its Host (which must name the TLS connection's SNI, else 421) and
 * target, then the cached route of the Host. Rejects only when the route cannot be read.
 */
@Injectable()
export class EdgeRouter {
  constructor(private readonly routes: RouteStore) {}

  async decide(req: IncomingMessage, arrival: Arrival): Promise<Decision> {
    const host = parseHost(req.headers.host);
    const target = parseRequestTarget(req.url);
    if (!host || !target) return { kind: 'page', page: 'bad_request' };
    const servername = (req.socket as Partial<TLSSocket>).servername;
    if (typeof servername === 'string' && parseHost(servername) !== host) return { kind: 'page', page: 'misdirected' };
    return decide(await this.routes.get(host), arrival.scheme, target);
  }
}
