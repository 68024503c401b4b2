import { SecretBox } from '@app/crypto';
import { CLOCK, Clock, DomainError } from '@app/kernel';
import { Inject, Injectable } from '@nestjs/common';
import { CreateWebhookEndpointDto } from './dto/create-webhook-endpoint.dto';
import { UpdateWebhookEndpointDto } from './dto/update-webhook-endpoint.dto';
import { EndpointRepository } from '../store/endpoint.repository';
import { EndpointView, toEndpointView } from '../model/endpoint.view';
import { EventRepository } from '../store/event.repository';
import { TEST_EVENT_TYPE, normalizeFilter } from '../model/event-types';
import { DEFAULT_OVERLAP_SECONDS, overlapEnd } from '../model/secret-rotation';
import { newEndpointId, newWebhookSecret } from '../store/webhook-ids';

/** Changes to webhook endpoints. The secret is sealed at rest and shown only by create and rotate. */
@Injectable()
export class WebhookEndpoints {
  constructor(
    private readonly endpoints: EndpointRepository,
    private readonly box: SecretBox,
    private readonly events: EventRepository,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async create(workspaceId: string, dto: CreateWebhookEndpointDto): Promise<{ endpoint: EndpointView }> {
    const secret = newWebhookSecret();
    const record = await this.endpoints.insert({
      id: newEndpointId(),
      workspaceId,
      url: dto.url,
      events: normalizeFilter(dto.events ?? []),
      enabled: dto.enabled ?? true,
      secretSealed: this.box.seal(secret),
    });
    return { endpoint: toEndpointView(record, secret) };
  }

  async update(workspaceId: string, id: string, dto: UpdateWebhookEndpointDto): Promise<{ endpoint: EndpointView }> {
    if (dto.url === undefined && dto.events === undefined && dto.enabled === undefined) {
      throw new DomainError('bad_request', 'Send at least one of url, events, enabled');
    }
    const events = dto.events && normalizeFilter(dto.events);
    const record = await this.endpoints.update(workspaceId, id, { url: dto.url, events, enabled: dto.enabled });
    return { endpoint: toEndpointView(record) };
  }

  /**
   * A new secret; during the overlap (default 24 h) deliveries are signed with both it and the one
   * it replaced, then with the new one only, so receivers can deploy it without dropping events.
   */
  async rotateSecret(
    workspaceId: string,
    id: string,
    overlapSeconds = DEFAULT_OVERLAP_SECONDS,
  ): Promise<{ endpoint: EndpointView }> {
    const secret = newWebhookSecret();
    const until = overlapEnd(new Date(this.clock.now()), overlapSeconds);
    const record = await this.endpoints.rotateSecret(workspaceId, id, this.box.seal(secret), until);
    return { endpoint: toEndpointView(record, secret) };
  }

  async remove(workspaceId: string, id: string): Promise<{ deleted: true; id: string }> {
    await this.endpoints.remove(workspaceId, id);
    return { deleted: true, id };
  }

  /**
   * Queues a `webhook_endpoint.test` event in the outbox like any other event, so it is relayed,
   * signed and retried exactly as production deliveries are, to this endpoint only. The relay's
   * poll picks it up (within about half a second), on whichever node relays.
   */
  async sendTestEvent(
    workspaceId: string,
    id: string,
  ): Promise<{ event: { id: string; type: string; createdAt: string } }> {
    const endpoint = await this.endpoints.get(workspaceId, id);
    const data = { test: true, endpointId: endpoint.id, message: 'A test event sent on request; no domain changed.' };
    const { id: eventId, createdAt } = await this.events.queue(workspaceId, TEST_EVENT_TYPE, data, {
      kind: 'webhook_endpoint',
      id: endpoint.id,
    });
    return { event: { id: eventId, type: TEST_EVENT_TYPE, createdAt } };
  }
}
