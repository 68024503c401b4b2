/** Webhooks: endpoints, the events API, the outbox relay (JetStream + deliveries) and signed delivery. */
export { WebhooksApiModule, WebhooksNodeModule } from './webhooks.module';

// The api's use cases and stores, shared with the console.
export { CreateWebhookEndpoint } from './api/create-webhook-endpoint.usecase';
export { UpdateWebhookEndpoint } from './api/update-webhook-endpoint.usecase';
export { RotateWebhookSecret } from './api/rotate-webhook-secret.usecase';
export { RemoveWebhookEndpoint } from './api/remove-webhook-endpoint.usecase';
export { EventReplay } from './api/event-replay.usecase';
export { SendTestEvent } from './api/send-test-event.usecase';
export { CreateWebhookEndpointDto } from './api/dto/create-webhook-endpoint.dto';
export { UpdateWebhookEndpointDto } from './api/dto/update-webhook-endpoint.dto';
export { EndpointRepository } from './store/endpoint.repository';
export { DeliveryRepository, type DeliveryAttemptRecord } from './store/delivery.repository';
export { ATTEMPTS_KEPT } from './store/outcome.writer';

// The wire contract: event types, envelopes, JetStream names, signatures, retry offsets.
export { EVENT_TYPES } from './model/event-types';
export { buildEnvelope, envelopeBody, eventSchema } from './model/envelope';
export { eventSubject, streamName } from './node/event-stream';
export { verifyWebhook } from './model/verify-signature';
export { attemptOffsets } from './model/retry-schedule';
export { endpointSchema, toEndpointView, type EndpointView } from './model/endpoint.view';
export { deliverySchema, toDeliveryView, DELIVERY_STATUSES, type DeliveryView } from './model/delivery.view';

// The node's delivery worker, which tests and benchmarks drive and size.
export { DeliveryWorker, MAX_IN_FLIGHT, PER_ENDPOINT } from './node/delivery-worker.service';
// The bus subjects that wake relays and delivery workers (tests that write the outbox by hand).
export { OUTBOX_QUEUED_SUBJECT } from './model/wake';
