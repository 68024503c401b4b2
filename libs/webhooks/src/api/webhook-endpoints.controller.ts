import { CurrentPrincipal, Principal, ScopeResourceOf } from '@app/auth';
import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Query } from '@nestjs/common';
import { DeliveryRepository } from '../store/delivery.repository';
import { toDeliveryView } from '../model/delivery.view';
import { CreateWebhookEndpointDto } from './dto/create-webhook-endpoint.dto';
import { ListDeliveriesDto } from './dto/list-deliveries.dto';
import { RotateSecretDto } from './dto/rotate-secret.dto';
import { PageQueryDto } from '@app/http';
import { Idempotent } from '@app/limits';
import { UpdateWebhookEndpointDto } from './dto/update-webhook-endpoint.dto';
import { EndpointRepository } from '../store/endpoint.repository';
import { toEndpointView } from '../model/endpoint.view';
import { CreateWebhookEndpoint } from './create-webhook-endpoint.usecase';
import { RemoveWebhookEndpoint } from './remove-webhook-endpoint.usecase';
import { RotateWebhookSecret } from './rotate-webhook-secret.usecase';
import { SendTestEvent } from './send-test-event.usecase';
import { UpdateWebhookEndpoint } from './update-webhook-endpoint.usecase';

@Controller('v1/webhook-endpoints')
@ScopeResourceOf('webhooks')
export class WebhookEndpointsController {
  constructor(
    private readonly createEndpoint: CreateWebhookEndpoint,
    private readonly updateEndpoint: UpdateWebhookEndpoint,
    private readonly removeEndpoint: RemoveWebhookEndpoint,
    private readonly rotateSecret: RotateWebhookSecret,
    private readonly sendTestEvent: SendTestEvent,
    private readonly endpoints: EndpointRepository,
    private readonly deliveries: DeliveryRepository,
  ) {}

  @Post()
  @Idempotent()
  create(@CurrentPrincipal() p: Principal, @Body() body: CreateWebhookEndpointDto) {
    return this.createEndpoint.execute(p.workspaceId, body);
  }

  @Get()
  async list(@CurrentPrincipal() p: Principal, @Query() q: PageQueryDto) {
    const result = await this.endpoints.list(p.workspaceId, q.limit ?? 25, q.cursor);
    return { endpoints: result.rows.map((r) => toEndpointView(r)), nextCursor: result.nextCursor };
  }

  @Get(':id')
  async get(@CurrentPrincipal() p: Principal, @Param('id') id: string) {
    return { endpoint: toEndpointView(await this.endpoints.get(p.workspaceId, id)) };
  }

  @Patch(':id')
  update(@CurrentPrincipal() p: Principal, @Param('id') id: string, @Body() body: UpdateWebhookEndpointDto) {
    return this.updateEndpoint.execute(p.workspaceId, id, body);
  }

  @Delete(':id')
  remove(@CurrentPrincipal() p: Principal, @Param('id') id: string) {
    return this.removeEndpoint.execute(p.workspaceId, id);
  }

  @Post(':id/rotate-secret')
  @HttpCode(200)
  rotate(@CurrentPrincipal() p: Principal, @Param('id') id: string, @Body() body: RotateSecretDto) {
    return this.rotateSecret.execute(p.workspaceId, id, body?.overlapSeconds ?? undefined);
  }

  /** Sends a signed `webhook_endpoint.test` event to this endpoint through the normal delivery path. */
  @Post(':id/test')
  @HttpCode(202)
  sendTest(@CurrentPrincipal() p: Principal, @Param('id') id: string) {
    return this.sendTestEvent.execute(p.workspaceId, id);
  }

  @Get(':id/deliveries')
  async deliveriesOf(@CurrentPrincipal() p: Principal, @Param('id') id: string, @Query() q: ListDeliveriesDto) {
    await this.endpoints.get(p.workspaceId, id);
    const result = await this.deliveries.list(p.workspaceId, id, { ...q, limit: q.limit ?? 25 });
    return { deliveries: result.rows.map(toDeliveryView), nextCursor: result.nextCursor };
  }
}
