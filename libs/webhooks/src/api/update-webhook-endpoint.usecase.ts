import { DomainError } from '@app/kernel';
import { Injectable } from '@nestjs/common';
import { EndpointView, toEndpointView } from '../model/endpoint.view';
import { normalizeFilter } from '../model/event-types';
import { EndpointRepository } from '../store/endpoint.repository';
import { UpdateWebhookEndpointDto } from './dto/update-webhook-endpoint.dto';

/** PATCH /v1/webhook-endpoints/:id: url, events and enabled; at least one of them. */
@Injectable()
export class UpdateWebhookEndpoint {
  constructor(private readonly endpoints: EndpointRepository) {}

  async execute(workspaceId: string, id: string, dto: UpdateWebhookEndpointDto): Promise<{ endpoint: EndpointView }> {
    if (dto.url === undefined && dto.events === undefined && dto.enabled === undefined) {
      throw new DomainError('bad_request', 'Send at least one of url, events, enabled');
    }
    const events = dto.events && normalizeFilter(dto.events);
    const record = await this.endpoints.update(workspaceId, id, { url: dto.url, events, enabled: dto.enabled });
    return { endpoint: toEndpointView(record) };
  }
}
