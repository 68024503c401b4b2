import { EVENT_TYPES } from '@app/webhooks';
import { arrayOf, dateTime, envelope, obj, page, ref, str } from '../schema';
import type { OperationDoc } from './operation-doc';

const EVENT_TYPE = EVENT_TYPES.map((type) => type.replace(/\./g, '\\.')).join('|');

/** Webhook endpoints and events. */
export const WEBHOOK_OPERATIONS: Record<string, OperationDoc> = {
  'POST /v1/webhook-endpoints': {
    summary: 'Register a webhook endpoint (the secret is shown once)',
    response: envelope('endpoint', ref('WebhookEndpoint')),
  },
  'GET /v1/webhook-endpoints': {
    summary: 'List webhook endpoints',
    response: page('endpoints', ref('WebhookEndpoint')),
  },
  'GET /v1/webhook-endpoints/{id}': {
    summary: 'Get a webhook endpoint',
    response: envelope('endpoint', ref('WebhookEndpoint')),
  },
  'PATCH /v1/webhook-endpoints/{id}': {
    summary: 'Change a webhook endpoint',
    response: envelope('endpoint', ref('WebhookEndpoint')),
  },
  'DELETE /v1/webhook-endpoints/{id}': { summary: 'Delete a webhook endpoint', response: ref('Deleted') },
  'POST /v1/webhook-endpoints/{id}/rotate-secret': {
    summary: 'Replace the signing secret (the new one is shown once); the old one keeps signing during an overlap',
    description:
      'Optional body `{overlapSeconds}` (0-604800, default 86400). Until `previousSecretExpiresAt` every delivery ' +
      'carries two signatures, `t=<t>,sha256=<new>,sha256=<old>`, so a receiver that knows either secret accepts ' +
      'it; then only the new one signs. 0 stops the old secret at once. Rotating again during an overlap keeps ' +
      'only the secret being replaced.',
    response: envelope('endpoint', ref('WebhookEndpoint')),
  },
  'POST /v1/webhook-endpoints/{id}/test': {
    summary: 'Send a signed test event to this endpoint',
    description:
      'Queues an event of type `webhook_endpoint.test` (not one of the subscribable types; `data.test` is true ' +
      'and `data.endpointId` names the endpoint) for this endpoint only, whatever its `events` filter. It goes ' +
      'through the outbox, the delivery worker and the signed POST like every other event, so it is signed, ' +
      "retried and listed under the endpoint's deliveries the same way. A disabled endpoint receives nothing.",
    response: envelope('event', obj({ id: str('`evt_...`'), type: str(), createdAt: dateTime() })),
  },
  'GET /v1/webhook-endpoints/{id}/deliveries': {
    summary: 'Deliveries to an endpoint',
    response: page('deliveries', ref('Delivery')),
  },
  'GET /v1/events': {
    summary: 'List events, newest first',
    response: page('events', ref('Event')),
    query: {
      type: {
        type: 'array',
        items: {
          type: 'string',
          // Empty (`type=`) filters nothing, as when the parameter is left out.
          pattern: `^((${EVENT_TYPE})(,(${EVENT_TYPE}))*)?$`,
          description: `Event types, repeated (\`type=a&type=b\`) or comma-separated (\`type=a,b\`): ${EVENT_TYPES.join(', ')}; empty filters nothing`,
        },
      },
    },
  },
  'GET /v1/events/{id}': { summary: 'Get an event', response: envelope('event', ref('Event')) },
  'POST /v1/events/{id}/replay': {
    summary: 'Deliver an event again',
    response: obj({ deliveries: arrayOf(ref('Delivery')) }),
  },
};
