import { Bus } from '@app/bus';
import { CLOCK, Clock, DomainError } from '@app/kernel';
import { Inject, Injectable } from '@nestjs/common';
import { DeliveryRepository } from '../store/delivery.repository';
import { DeliveryView, toDeliveryView } from '../model/delivery.view';
import { EndpointRepository } from '../store/endpoint.repository';
import { EventRepository } from '../store/event.repository';
import { matchesFilter } from '../model/event-types';
import { DELIVERIES_DUE_SUBJECT } from '../model/wake';

/** Sends an event again: to one endpoint, or to every enabled endpoint whose filter matches. */
@Injectable()
export class EventReplay {
  constructor(
    private readonly events: EventRepository,
    private readonly endpoints: EndpointRepository,
    private readonly deliveries: DeliveryRepository,
    private readonly bus: Bus,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async replay(workspaceId: string, eventId: string, endpointId?: string): Promise<{ deliveries: DeliveryView[] }> {
    const event = await this.events.row(workspaceId, eventId);
    let targets: string[];
    if (endpointId !== undefined) {
      const endpoint = await this.endpoints.get(workspaceId, endpointId);
      if (!endpoint.enabled) {
        throw new DomainError('bad_request', `Webhook endpoint ${endpoint.id} is disabled: enable it first`, {
          field: 'endpointId',
        });
      }
      targets = [endpoint.id];
    } else {
      const enabled = await this.endpoints.enabled(workspaceId);
      targets = enabled.filter((e) => matchesFilter(e.events, event.type)).map((e) => e.id);
    }
    const rows = await this.deliveries.replay(event, targets, new Date(this.clock.now()));
    if (rows.length) this.bus.publish(DELIVERIES_DUE_SUBJECT, { count: rows.length });
    return { deliveries: rows.map(toDeliveryView) };
  }
}
