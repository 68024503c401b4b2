import {
  DELIVERY_STATUSES,
  DeliveryRepository,
  EndpointRepository,
  EndpointView,
  toDeliveryView,
  toEndpointView,
} from '@app/webhooks';
import { Injectable } from '@nestjs/common';
import { ConsoleQueries } from './console.queries';
import { toEndpointHealth } from './views/endpoint-health.view';
import { EndpointDetail } from './views/webhooks.page';

const PAGE_SIZE = 25;

/** What the webhook pages show: endpoints with their dead letters and health, deliveries with their hostname. */
@Injectable()
export class ConsoleEndpointPages {
  constructor(
    private readonly endpoints: EndpointRepository,
    private readonly deliveries: DeliveryRepository,
    private readonly queries: ConsoleQueries,
  ) {}

  async list(ws: string) {
    const { rows } = await this.endpoints.list(ws, 100);
    const dead = await this.queries.deadLettersByEndpoint(ws);
    const health = await this.queries.endpointHealth(ws);
    return rows.map((r) => ({
      ...toEndpointView(r),
      dead: Number(dead.find((d) => d.endpoint_id === r.id)?.n ?? 0),
      health: toEndpointHealth(health.find((h) => h.endpoint_id === r.id)),
    }));
  }

  /** `shown`: the endpoint as a use case just answered it (with its secret, once). */
  async detail(
    ws: string,
    id: string,
    q: { status?: (typeof DELIVERY_STATUSES)[number]; cursor?: string } = {},
    shown?: EndpointView & { secret?: string },
  ): Promise<EndpointDetail> {
    const endpoint = shown ?? toEndpointView(await this.endpoints.get(ws, id));
    const page = await this.deliveries.list(ws, id, { status: q.status, cursor: q.cursor, limit: PAGE_SIZE });
    const views = page.rows.map(toDeliveryView);
    const hostnames = await this.queries.eventHostnames(views.map((d) => d.eventId));
    const [health] = await this.queries.endpointHealth(ws, id);
    return {
      endpoint,
      health: toEndpointHealth(health),
      deliveries: views.map((d) => ({ ...d, hostname: hostnames.find((h) => h.id === d.eventId)?.hostname })),
      status: q.status,
      nextCursor: page.nextCursor,
      secret: shown?.secret,
    };
  }
}
