import { Injectable } from '@nestjs/common';
import { EdgeRoute } from './edge-route';
import { ReplicatedRoutes } from './replica/replicated-routes';

/**
 * The route of each hostname, from the edge's replicated copy (no database on the request path):
 * the hostname's own domain or www twin; else the wildcard one label up.
 */
@Injectable()
export class RouteStore {
  constructor(private readonly replicated: ReplicatedRoutes) {}

  async get(hostname: string): Promise<EdgeRoute | undefined> {
    return this.replicated.route(hostname);
  }

  /** The same, without a promise (the TLS handshake's path). */
  now(hostname: string): EdgeRoute | undefined {
    return this.replicated.route(hostname);
  }
}
