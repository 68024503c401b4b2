import { Bus } from '@app/bus';
import { APP_CONFIG, AppConfig } from '@app/config';
import { SecretBox } from '@app/crypto';
import { DnsModule, OriginPreflight } from '@app/dns';
import { CLOCK, Clock } from '@app/kernel';
import { MikroOrmModule } from '@mikro-orm/nestjs';
import { Module } from '@nestjs/common';
import { DeliveryAttempt } from './node/delivery-attempt';
import { DeliveryWorker } from './node/delivery-worker.service';
import { DeliveryRepository } from './store/delivery.repository';
import { EndpointRepository } from './store/endpoint.repository';
import { CreateWebhookEndpoint } from './api/create-webhook-endpoint.usecase';
import { EventReplay } from './api/event-replay.usecase';
import { RemoveWebhookEndpoint } from './api/remove-webhook-endpoint.usecase';
import { RotateWebhookSecret } from './api/rotate-webhook-secret.usecase';
import { SendTestEvent } from './api/send-test-event.usecase';
import { UpdateWebhookEndpoint } from './api/update-webhook-endpoint.usecase';
import { EventStream } from './node/event-stream';
import { EventRepository } from './store/event.repository';
import { EventsController } from './api/events.controller';
import { OutboxRelay } from './node/outbox-relay.service';
import { WebhookEndpoint } from './store/webhook-endpoint.entity';
import { WebhookEndpointsController } from './api/webhook-endpoints.controller';
import { WebhookSender } from './node/webhook-sender';

const STORES = [EndpointRepository, EventRepository, DeliveryRepository];
const USE_CASES = [
  CreateWebhookEndpoint,
  UpdateWebhookEndpoint,
  RemoveWebhookEndpoint,
  RotateWebhookSecret,
  SendTestEvent,
  EventReplay,
];

/** /v1/webhook-endpoints and /v1/events (api, standalone). */
@Module({
  imports: [MikroOrmModule.forFeature([WebhookEndpoint])],
  controllers: [WebhookEndpointsController, EventsController],
  providers: [...STORES, ...USE_CASES],
  exports: [...STORES, ...USE_CASES],
})
export class WebhooksApiModule {}

/** The outbox relay and the delivery workers (node, standalone). */
@Module({
  imports: [DnsModule],
  providers: [
    {
      provide: EventStream,
      inject: [Bus, APP_CONFIG],
      useFactory: (bus: Bus, config: AppConfig) => new EventStream(bus, config.natsReplicas),
    },
    {
      provide: DeliveryAttempt,
      inject: [OriginPreflight, SecretBox, CLOCK],
      useFactory: (preflight: OriginPreflight, box: SecretBox, c: Clock) =>
        new DeliveryAttempt(new WebhookSender(preflight), box, c),
    },
    DeliveryWorker,
    OutboxRelay,
  ],
  exports: [DeliveryWorker, OutboxRelay],
})
export class WebhooksNodeModule {}
