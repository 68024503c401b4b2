/** Webhooks: endpoints, the events API, the outbox relay (JetStream + deliveries) and signed delivery. */
export * from './clock';
export * from './envelope';
export * from './event-stream';
export * from './event-types';
export * from './retry-schedule';
export { DEFAULT_OVERLAP_SECONDS, MAX_OVERLAP_SECONDS } from './secret-rotation';
export * from './signature';
export * from './verify-signature';
export * from './webhooks.module';
export { DeliveryWorker, LEASE_MS, MAX_IN_FLIGHT, PER_ENDPOINT } from './delivery-worker.service';
export { OutboxRelay } from './outbox-relay.service';
export { DELIVERY_TIMEOUT_MS } from './webhook-sender';
