import { Bus } from '@app/bus';
import { Injectable } from '@nestjs/common';
import { TEST_EVENT_TYPE } from '../model/event-types';
import { EndpointRepository } from '../store/endpoint.repository';
import { EventRepository } from '../store/event.repository';
import { OUTBOX_QUEUED_SUBJECT } from '../model/wake';

/**
 * POST /v1/webhook-endpoints/:id/test: queues a `webhook_endpoint.test` event in the outbox like any
 * other event, so it is relayed, signed and retried exactly as production deliveries are, to this
 * endpoint only. A bus message wakes the relays (their slow poll is the backstop for a lost one).
 */
@Injectable()
export class SendTestEvent {
  constructor(
    private readonly endpoints: EndpointRepository,
    private readonly events: EventRepository,
    private readonly bus: Bus,
  ) {}

  async execute(workspaceId: string, id: string): Promise<{ event: { id: string; type: string; createdAt: string } }> {
    const endpoint = await this.endpoints.get(workspaceId, id);
    const data = { test: true, endpointId: endpoint.id, message: 'A test event sent on request; no domain changed.' };
    const { id: eventId, createdAt } = await this.events.queue(workspaceId, TEST_EVENT_TYPE, data, {
      kind: 'webhook_endpoint',
      id: endpoint.id,
    });
    this.bus.publish(OUTBOX_QUEUED_SUBJECT, {});
    return { event: { id: eventId, type: TEST_EVENT_TYPE, createdAt } };
  }
}
