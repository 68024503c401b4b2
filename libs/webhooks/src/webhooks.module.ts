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
import { EventReplay } from './api/event-replay.usecase';
import { EventStream } from './node/event-stream';
import { EventRepository } from './store/event.repository';
import { EventsController } from './api/events.controller';
import { OutboxRelay } from './node/outbox-relay.service';
import { WebhookEndpoint } from './store/webhook-endpoint.entity';
import { WebhookEndpointsController } from './api/webhook-endpoints.controller';
import { WebhookEndpoints } from './api/webhook-endpoints.usecase';
import { WebhookSender } from './node/webhook-sender';

/** /v1/webhook-endpoints and /v1/events (api, standalone). */
@Module({
  imports: [MikroOrmModule.forFeature([WebhookEndpoint])],
  controllers: [WebhookEndpointsController, EventsController],
  providers: [EndpointRepository, EventRepository, DeliveryRepository, WebhookEndpoints, EventReplay],
  exports: [EndpointRepository, EventRepository, DeliveryRepository, WebhookEndpoints, EventReplay],
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
