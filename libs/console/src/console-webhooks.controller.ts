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
  SendTestEvent,
  UpdateWebhookEndpoint,
  UpdateWebhookEndpointDto,
  toDeliveryView,
  toEndpointView,
} from '@app/webhooks';
import { Body, Get, Param, Post, Query } from '@nestjs/common';
import { ConsoleActor } from './access';
import { ConsoleController } from './console-controller';
import { ConsoleEndpointPages } from './console-endpoint-pages.service';
import { Actor, FormBody, PageWithStatus, Redirect, ShowOnce, ShownOnce, field, fields } from './console-request';
import { formProblems, orFormProblem } from './forms/form-problems';
import { statusOf } from '@app/http';
import type { Flash } from './console-flashes.store';
import { checked, validated } from './form-validation';
import { deliveryPage } from './views/delivery.page';
import { deleteEndpointPage, endpointPage, webhooksPage } from './views/webhooks.page';
import { ConsoleAccess, Workspace } from './console-access';
import type { WorkspaceContext } from './views/layout';
import { AuditNote, AuditNoteFn, Audited } from './console-audited';

/** Most events one "Replay selected" sends: a page of deliveries. */
const MAX_REPLAY = 100;
const NOTICES: Record<string, string> = {
  added: 'Endpoint added.',
  rotated: 'Secret rotated: sign-checks with the old secret fail from now on.',
  saved: 'Endpoint saved.',
  deleted: 'Endpoint deleted.',
  'test-sent': 'Test event queued: its delivery appears below within seconds.',
  replayed: 'Replay queued: the deliveries are due now and go out from the delivery workers.',
};

/** A signing secret (new endpoint, rotation) waits for the endpoint's page in a one-time flash. */
const secretOnce = (ws: string, endpointId: string, secret: string | undefined, rotated: boolean) =>
  new ShowOnce(
    { kind: 'webhook_secret', workspaceId: ws, endpointId, secret: secret ?? '', rotated },
    `/console/w/${ws}/webhooks/${endpointId}`,
  );

/** Webhook endpoints, deliveries and replays through the same use cases as /v1/webhook-endpoints and /v1/events. */
@ConsoleController()
export class ConsoleWebhooksController {
  constructor(
    private readonly endpoints: EndpointRepository,
    private readonly createEndpoint: CreateWebhookEndpoint,
    private readonly updateEndpoint: UpdateWebhookEndpoint,
    private readonly rotateSecret: RotateWebhookSecret,
    private readonly removeEndpoint: RemoveWebhookEndpoint,
    private readonly deliveries: DeliveryRepository,
    private readonly replays: EventReplay,
    private readonly pages: ConsoleEndpointPages,
    private readonly testEvents: SendTestEvent,
  ) {}

  @ConsoleAccess('read')
  @Get('w/:ws/webhooks')
  async list(
    @Actor() actor: ConsoleActor,
    @Workspace() w: WorkspaceContext,
    @Param('ws') ws: string,
    @Query('notice') notice?: string,
  ) {
    return webhooksPage(actor, w, await this.pages.list(ws), notice ? NOTICES[notice] : undefined);
  }

  /** Post, redirect, show once: the secret waits for the endpoint's page in a one-time flash; a reload adds nothing. */
  @Audited('webhook_endpoint.created')
  @ConsoleAccess('write')
  @Post('w/:ws/webhooks')
  async create(
    @Actor() actor: ConsoleActor,
    @AuditNote() note: AuditNoteFn,
    @Workspace() w: WorkspaceContext,
    @Param('ws') ws: string,
    @Body() body: FormBody,
  ) {
    const typed = { url: field(body, 'url') ?? '', events: fields(body, 'events') };
    // A refused URL (not http or https, malformed) is the form again, as typed.
    const created = await orFormProblem(
      validated(CreateWebhookEndpointDto, typed).then((dto) => this.createEndpoint.execute(ws, dto)),
    );
    if (created instanceof DomainError) {
      const form = { ...typed, problems: formProblems(created, ['url', 'events']) };
      const page = webhooksPage(actor, w, await this.pages.list(ws), undefined, form);
      return new PageWithStatus(statusOf(created.code), page);
    }
    const { endpoint } = created;
    note({ target: endpoint.id, detail: { url: endpoint.url } });
    return secretOnce(ws, endpoint.id, endpoint.secret, false);
  }

  @ConsoleAccess('read')
  @Get('w/:ws/webhooks/:id')
  async show(
    @Actor() actor: ConsoleActor,
    @Workspace() w: WorkspaceContext,
    @Param('ws') ws: string,
    @Param('id') id: string,
    @Query() q: Record<string, string | undefined>,
    @ShownOnce() flash?: Flash,
  ) {
    const status = DELIVERY_STATUSES.find((s) => s === q.status);
    const detail = await this.pages.detail(ws, id, { status, cursor: q.cursor });
    const shown = flash?.kind === 'webhook_secret' && flash.endpointId === id ? flash : undefined;
    if (!shown) return endpointPage(actor, w, detail, q.notice ? NOTICES[q.notice] : undefined);
    return endpointPage(actor, w, { ...detail, secret: shown.secret }, NOTICES[shown.rotated ? 'rotated' : 'added']);
  }

  @ConsoleAccess('read')
  @Get('w/:ws/webhooks/:id/deliveries/:deliveryId')
  async delivery(
    @Actor() actor: ConsoleActor,
    @Workspace() w: WorkspaceContext,
    @Param('ws') ws: string,
    @Param('id') id: string,
    @Param('deliveryId') deliveryId: string,
  ) {
    const endpoint = toEndpointView(await this.endpoints.get(ws, id));
    const delivery = toDeliveryView(await this.deliveries.get(ws, id, deliveryId));
    const attempts = await this.deliveries.attempts(deliveryId);
    return deliveryPage(actor, w, { endpoint, delivery, attempts, kept: ATTEMPTS_KEPT });
  }

  @Audited('webhook_endpoint.updated')
  @ConsoleAccess('write')
  @Post('w/:ws/webhooks/:id/edit')
  async edit(
    @Actor() actor: ConsoleActor,
    @AuditNote() note: AuditNoteFn,
    @Workspace() w: WorkspaceContext,
    @Param('ws') ws: string,
    @Param('id') id: string,
    @Body() body: FormBody,
  ) {
    const sent = { url: field(body, 'url'), events: fields(body, 'events'), enabled: checked(field(body, 'enabled')) };
    // A refused URL or event list is the form again, as typed, the problem under its field.
    const refused = await orFormProblem(
      validated(UpdateWebhookEndpointDto, sent).then(
        async (dto) => void (await this.updateEndpoint.execute(ws, id, dto)),
      ),
    );
    if (refused) {
      const settingsForm = { ...sent, url: sent.url ?? '', problems: formProblems(refused, ['url', 'events']) };
      const page = endpointPage(actor, w, { ...(await this.pages.detail(ws, id)), settingsForm });
      return new PageWithStatus(statusOf(refused.code), page);
    }
    note({ detail: { url: sent.url, enabled: sent.enabled } });
    return new Redirect(`/console/w/${ws}/webhooks/${id}?notice=saved`);
  }

  @Audited('webhook_endpoint.secret_rotated')
  @ConsoleAccess('write')
  @Post('w/:ws/webhooks/:id/rotate')
  async rotate(@Param('ws') ws: string, @Param('id') id: string) {
    const { endpoint } = await this.rotateSecret.execute(ws, id);
    return secretOnce(ws, id, endpoint.secret, true);
  }

  /** A `webhook_endpoint.test` event through the outbox, as POST /v1/webhook-endpoints/{id}/test sends. */
  @Audited('webhook_endpoint.test_sent')
  @ConsoleAccess('write')
  @Post('w/:ws/webhooks/:id/test')
  async sendTest(@AuditNote() note: AuditNoteFn, @Param('ws') ws: string, @Param('id') id: string) {
    const { event } = await this.testEvents.execute(ws, id);
    note({ detail: { eventId: event.id } });
    return new Redirect(`/console/w/${ws}/webhooks/${id}?notice=test-sent`);
  }

  @ConsoleAccess('write')
  @Get('w/:ws/webhooks/:id/delete')
  async confirmDelete(
    @Actor() actor: ConsoleActor,
    @Workspace() w: WorkspaceContext,
    @Param('ws') ws: string,
    @Param('id') id: string,
  ) {
    return deleteEndpointPage(actor, w, toEndpointView(await this.endpoints.get(ws, id)));
  }

  @Audited('webhook_endpoint.deleted')
  @ConsoleAccess('write')
  @Post('w/:ws/webhooks/:id/delete')
  async remove(@Actor() actor: ConsoleActor, @Param('ws') ws: string, @Param('id') id: string) {
    await this.removeEndpoint.execute(ws, id);
    return new Redirect(`/console/w/${ws}/webhooks?notice=deleted`);
  }

  /** Replays one or many events to this endpoint (EventReplay, as POST /v1/events/{id}/replay does). */
  @Audited('event.replayed')
  @ConsoleAccess('write')
  @Post('w/:ws/webhooks/:id/replay')
  async replay(
    @Actor() actor: ConsoleActor,
    @AuditNote() note: AuditNoteFn,
    @Param('ws') ws: string,
    @Param('id') id: string,
    @Body() body: FormBody,
  ) {
    const eventIds = [...new Set(fields(body, 'eventId'))];
    if (!eventIds.length) throw new DomainError('bad_request', 'Select at least one delivery to replay');
    if (eventIds.length > MAX_REPLAY)
      throw new DomainError('bad_request', `Replay at most ${MAX_REPLAY} events at once`);
    await this.endpoints.get(ws, id);
    for (const eventId of eventIds) {
      await this.replays.replay(ws, eventId, id);
      note({ target: eventId, detail: { endpointId: id } });
    }
    return new Redirect(`/console/w/${ws}/webhooks/${id}?notice=replayed`);
  }
}
