import { Injectable } from '@nestjs/common';
import { EndpointRepository } from '../store/endpoint.repository';

/** DELETE /v1/webhook-endpoints/:id. */
@Injectable()
export class RemoveWebhookEndpoint {
  constructor(private readonly endpoints: EndpointRepository) {}

  async execute(workspaceId: string, id: string): Promise<{ deleted: true; id: string }> {
    await this.endpoints.remove(workspaceId, id);
    return { deleted: true, id };
  }
}
