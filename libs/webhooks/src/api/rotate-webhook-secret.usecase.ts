import { SecretBox } from '@app/crypto';
import { CLOCK, Clock } from '@app/kernel';
import { Inject, Injectable } from '@nestjs/common';
import { EndpointView, toEndpointView } from '../model/endpoint.view';
import { DEFAULT_OVERLAP_SECONDS, overlapEnd } from '../model/secret-rotation';
import { EndpointRepository } from '../store/endpoint.repository';
import { newWebhookSecret } from '../store/webhook-ids';

/**
 * POST /v1/webhook-endpoints/:id/rotate-secret: a new secret; during the overlap (default 24 h)
 * deliveries are signed with both it and the one it replaced, then with the new one only, so
 * receivers can deploy it without dropping events.
 */
@Injectable()
export class RotateWebhookSecret {
  constructor(
    private readonly endpoints: EndpointRepository,
    private readonly box: SecretBox,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute(
    workspaceId: string,
    id: string,
    overlapSeconds = DEFAULT_OVERLAP_SECONDS,
  ): Promise<{ endpoint: EndpointView }> {
    const secret = newWebhookSecret();
    const until = overlapEnd(new Date(this.clock.now()), overlapSeconds);
    const record = await this.endpoints.rotateSecret(workspaceId, id, this.box.seal(secret), until);
    return { endpoint: toEndpointView(record, secret) };
  }
}
