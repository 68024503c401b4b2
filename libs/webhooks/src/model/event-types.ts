/** Every event type the service emits (SPEC section 6); endpoints subscribe to these by name. */
export const EVENT_TYPES = [
  'domain.created',
  'domain.verified',
  'domain.failed',
  'domain.monitor_updated',
  /** A domain's certificate was issued before its DNS moved (pre-validation): the customer can switch now. */
  'domain.ready_to_switch',
  'domain.expired',
  'domain.deleted',
  'domain_purchase.completed',
  'domain_purchase.failed',
] as const;

export type EventType = (typeof EVENT_TYPES)[number];

export function isEventType(value: unknown): value is EventType {
  return typeof value === 'string' && (EVENT_TYPES as readonly string[]).includes(value);
}

/** An endpoint's filter: empty means every type, otherwise the listed types only. */
export function matchesFilter(filter: readonly string[], type: string): boolean {
  return filter.length === 0 || filter.includes(type);
}

/** The filter as stored: known types only, each once, in the catalogue's order. */
export function normalizeFilter(types: readonly string[]): EventType[] {
  return EVENT_TYPES.filter((type) => types.includes(type));
}

/**
 * The event `POST /v1/webhook-endpoints/{id}/test` sends. Not one of SPEC section 6's types (nobody
 * subscribes to it and no filter excludes it): it goes to the one endpoint named in `data.endpointId`.
 */
export const TEST_EVENT_TYPE = 'webhook_endpoint.test';

/** Whether `endpointId` gets the event: a test event only its own endpoint, others by the filter. */
export function receivesEvent(
  endpoint: { id: string; events: readonly string[] },
  event: { type: string; data: Record<string, unknown> },
): boolean {
  if (event.type === TEST_EVENT_TYPE) return event.data.endpointId === endpoint.id;
  return matchesFilter(endpoint.events, event.type);
}
