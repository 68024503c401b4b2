import { SecretBox } from '@app/crypto';
import { Injectable } from '@nestjs/common';
import { EndpointView, toEndpointView } from '../model/endpoint.view';
import { normalizeFilter } from '../model/event-types';
import { EndpointRepository } from '../store/endpoint.repository';
import { newEndpointId, newWebhookSecret } from '../store/webhook-ids';
import { CreateWebhookEndpointDto } from './dto/create-webhook-endpoint.dto';

/** POST /v1/webhook-endpoints: the secret is sealed at rest and shown only here and by rotate. */
@Injectable()
export class CreateWebhookEndpoint {
  constructor(
    private readonly endpoints: EndpointRepository,
    private readonly box: SecretBox,
  ) {}

  async execute(workspaceId: string, dto: CreateWebhookEndpointDto): Promise<{ endpoint: EndpointView }> {
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
}
