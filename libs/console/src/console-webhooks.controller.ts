import { DomainError } from '@app/kernel';
import {
  CreateWebhookEndpoint,
  CreateWebhookEndpointDto,
  ATTEMPTS_KEPT,
  DELIVERY_STATUSES,
  DeliveryRepository,
  EndpointRepository,
  EventReplay,
  RemoveWebhookEndpoint,
  RotateWebhookSecret,
  UpdateWebhookEndpoint,
  UpdateWebhookEndpointDto,
  toDeliveryView,
  toEndpointView,
} from '@app/webhooks';
import { Body, Get, Param, Post, Query } from '@nestjs/common';
import { ConsoleActor } from './access';
import { ConsoleAudit } from './console-audit.store';
import { ConsoleController } from './console-controller';
import { ConsoleQueries } from './console.queries';
import { Actor, FormBody, Redirect, field, fields } from './console-request';
import { ConsoleWorkspaces } from './console-workspaces.service';
import { checked, validated } from './form-validation';
import { deliveryPage } from './views/delivery.page';
import { deleteEndpointPage, endpointPage, webhooksPage } from './views/webhooks.page';

const PAGE_SIZE = 25;
/** Most events one "Replay selected" sends: a page of deliveries. */
const MAX_REPLAY = 100;
const NOTICES: Record<string, string> = {
  saved: 'Endpoint saved.',
  deleted: 'Endpoint deleted.',
  replayed: 'Replay queued: the deliveries are due now and go out from the delivery workers.',
};

/** Webhook endpoints, deliveries and replays through the same use cases as /v1/webhook-endpoints and /v1/events. */
@ConsoleController()
export class ConsoleWebhooksController {
  constructor(
    private readonly workspaces: ConsoleWorkspaces,
    private readonly endpoints: EndpointRepository,
    private readonly createEndpoint: CreateWebhookEndpoint,
    private readonly updateEndpoint: UpdateWebhookEndpoint,
    private readonly rotateSecret: RotateWebhookSecret,
    private readonly removeEndpoint: RemoveWebhookEndpoint,
    private readonly deliveries: DeliveryRepository,
    private readonly replays: EventReplay,
    private readonly audit: ConsoleAudit,
    private readonly queries: ConsoleQueries,
  ) {}

  @Get('w/:ws/webhooks')
  async list(@Actor() actor: ConsoleActor, @Param('ws') ws: string, @Query('notice') notice?: string) {
    const w = await this.workspaces.context(actor, ws);
    const { rows } = await this.endpoints.list(ws, 100);
    const dead = await this.queries.deadLettersByEndpoint(ws);
    const deadOf = (id: string) => Number(dead.find((d) => d.endpoint_id === id)?.n ?? 0);
    return webhooksPage(
      actor,
      w,
      rows.map((r) => ({ ...toEndpointView(r), dead: deadOf(r.id) })),
      notice ? NOTICES[notice] : undefined,
    );
  }

  /** The secret is in this answer only. */
  @Post('w/:ws/webhooks')
  async create(@Actor() actor: ConsoleActor, @Param('ws') ws: string, @Body() body: FormBody) {
    const w = await this.workspaces.context(actor, ws, true);
    const dto = await validated(CreateWebhookEndpointDto, { url: field(body, 'url'), events: fields(body, 'events') });
    const { endpoint } = await this.createEndpoint.execute(ws, dto);
    await this.audit.record({
      workspaceId: ws,
      actor: actor.user.email,
      action: 'webhook_endpoint.created',
      target: endpoint.id,
      detail: { url: endpoint.url },
    });
    return endpointPage(
      actor,
      w,
      { endpoint, deliveries: [], nextCursor: null, secret: endpoint.secret },
      'Endpoint added.',
    );
  }

  @Get('w/:ws/webhooks/:id')
  async show(
    @Actor() actor: ConsoleActor,
    @Param('ws') ws: string,
    @Param('id') id: string,
    @Query() q: Record<string, string | undefined>,
  ) {
    const w = await this.workspaces.context(actor, ws);
    const endpoint = toEndpointView(await this.endpoints.get(ws, id));
    const status = DELIVERY_STATUSES.find((s) => s === q.status);
    const page = await this.deliveries.list(ws, id, { status, cursor: q.cursor, limit: PAGE_SIZE });
    return endpointPage(
      actor,
      w,
      { endpoint, deliveries: page.rows.map(toDeliveryView), status, nextCursor: page.nextCursor },
      q.notice ? NOTICES[q.notice] : undefined,
    );
  }

  @Get('w/:ws/webhooks/:id/deliveries/:deliveryId')
  async delivery(
    @Actor() actor: ConsoleActor,
    @Param('ws') ws: string,
    @Param('id') id: string,
    @Param('deliveryId') deliveryId: string,
  ) {
    const w = await this.workspaces.context(actor, ws);
    const endpoint = toEndpointView(await this.endpoints.get(ws, id));
    const delivery = toDeliveryView(await this.deliveries.get(ws, id, deliveryId));
    const attempts = await this.deliveries.attempts(deliveryId);
    return deliveryPage(actor, w, { endpoint, delivery, attempts, kept: ATTEMPTS_KEPT });
  }

  @Post('w/:ws/webhooks/:id/edit')
  async edit(@Actor() actor: ConsoleActor, @Param('ws') ws: string, @Param('id') id: string, @Body() body: FormBody) {
    await this.workspaces.context(actor, ws, true);
    const dto = await validated(UpdateWebhookEndpointDto, {
      url: field(body, 'url'),
      events: fields(body, 'events'),
      enabled: checked(field(body, 'enabled')),
    });
    await this.updateEndpoint.execute(ws, id, dto);
    await this.audit.record({
      workspaceId: ws,
      actor: actor.user.email,
      action: 'webhook_endpoint.updated',
      target: id,
      detail: { url: dto.url, enabled: dto.enabled },
    });
    return new Redirect(`/console/w/${ws}/webhooks/${id}?notice=saved`);
  }

  @Post('w/:ws/webhooks/:id/rotate')
  async rotate(@Actor() actor: ConsoleActor, @Param('ws') ws: string, @Param('id') id: string) {
    const w = await this.workspaces.context(actor, ws, true);
    const { endpoint } = await this.rotateSecret.execute(ws, id);
    await this.audit.record({
      workspaceId: ws,
      actor: actor.user.email,
      action: 'webhook_endpoint.secret_rotated',
      target: id,
    });
    const page = await this.deliveries.list(ws, id, { limit: PAGE_SIZE });
    return endpointPage(
      actor,
      w,
      { endpoint, deliveries: page.rows.map(toDeliveryView), nextCursor: page.nextCursor, secret: endpoint.secret },
      'Secret rotated: sign-checks with the old secret fail from now on.',
    );
  }

  @Get('w/:ws/webhooks/:id/delete')
  async confirmDelete(@Actor() actor: ConsoleActor, @Param('ws') ws: string, @Param('id') id: string) {
    const w = await this.workspaces.context(actor, ws, true);
    return deleteEndpointPage(actor, w, toEndpointView(await this.endpoints.get(ws, id)));
  }

  @Post('w/:ws/webhooks/:id/delete')
  async remove(@Actor() actor: ConsoleActor, @Param('ws') ws: string, @Param('id') id: string) {
    await this.workspaces.context(actor, ws, true);
    await this.removeEndpoint.execute(ws, id);
    await this.audit.record({
      workspaceId: ws,
      actor: actor.user.email,
      action: 'webhook_endpoint.deleted',
      target: id,
    });
    return new Redirect(`/console/w/${ws}/webhooks?notice=deleted`);
  }

  /** Replays one or many events to this endpoint (EventReplay, as POST /v1/events/{id}/replay does). */
  @Post('w/:ws/webhooks/:id/replay')
  async replay(@Actor() actor: ConsoleActor, @Param('ws') ws: string, @Param('id') id: string, @Body() body: FormBody) {
    await this.workspaces.context(actor, ws, true);
    const eventIds = [...new Set(fields(body, 'eventId'))];
    if (!eventIds.length) throw new DomainError('bad_request', 'Select at least one delivery to replay');
    if (eventIds.length > MAX_REPLAY)
      throw new DomainError('bad_request', `Replay at most ${MAX_REPLAY} events at once`);
    await this.endpoints.get(ws, id);
    for (const eventId of eventIds) {
      await this.replays.replay(ws, eventId, id);
      await this.audit.record({
        workspaceId: ws,
        actor: actor.user.email,
        action: 'event.replayed',
        target: eventId,
        detail: { endpointId: id },
      });
    }
    return new Redirect(`/console/w/${ws}/webhooks/${id}?notice=replayed`);
  }
}
