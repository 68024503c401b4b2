import { DOMAIN_STATUSES, STATUS_REASONS } from '@app/domains';
import { EDGE_INVALIDATE_SUBJECT } from '@app/kernel';
import { RENEWAL_FAILURE_CODES } from '@app/purchases';
import { EVENT_TYPES, eventSubject } from '@app/webhooks';
import { API_VERSION } from './openapi-document';
import { RENEWAL_SCHEMA } from './operations/purchases.operations';
import { RESOURCE_SCHEMAS } from './resource-schemas';
import { SchemaObject, nullable, obj, oneOfValues, ref, str } from './schema';

/** No field beyond the listed ones: a new extra must be documented here first. */
const closed = (schema: SchemaObject): SchemaObject => ({ ...schema, additionalProperties: false });

type Json = Record<string, unknown>;

/** `data` of `domain.created`: the domain as `POST /v1/domains` answered it. */
const DOMAIN_CREATED_DATA: SchemaObject = closed(obj({ domain: ref('Domain') }));

/** `data` of every other `domain.*` event: the domain after the change, and what changed. */
const DOMAIN_CHANGE_DATA: SchemaObject = closed(
  obj(
    {
      domain: ref('Domain'),
      previousStatus: { ...oneOfValues(...DOMAIN_STATUSES), description: 'The status before this change' },
      reason: {
        ...oneOfValues(...STATUS_REASONS),
        description: 'Why the domain is failed or expired, when the status or its reason changed',
      },
      certificateRenewed: {
        type: 'boolean',
        enum: [true],
        description: 'Present (true) when the change is a renewed certificate (`domain.monitor_updated`)',
      },
      takeoverGuard: {
        ...closed(
          obj({
            until: { type: 'string', format: 'date-time', description: 'When the guard ends' },
            reason: {
              ...oneOfValues('dns_points_at_edge', 'last_seen_at_edge'),
              description: 'DNS pointed at the edge at the deletion, or (DNS did not answer) at the last probe',
            },
          }),
        ),
        description:
          '`domain.deleted` only, when the hostname’s DNS still pointed at the edge: remove the record. Until ' +
          '`until`, another workspace connects the hostname only with the TXT ownership proof',
      },
    },
    ['reason', 'certificateRenewed', 'takeoverGuard'],
  ),
);

/** A renewal in `domain_purchase.*` events: the renew answer's `renewal`, and why a failed one failed. */
const PURCHASE_RENEWAL: SchemaObject = closed({
  ...RENEWAL_SCHEMA,
  properties: {
    ...RENEWAL_SCHEMA.properties,
    failure: nullable(
      obj({
        code: oneOfValues(...RENEWAL_FAILURE_CODES),
        reason: str('What the card network or the registrar said'),
      }),
    ),
  },
  required: [...(RENEWAL_SCHEMA.required ?? []), 'failure'],
});

/** `data` of `domain_purchase.*`: a registration's outcome, or (with `operation: "renewal"`) a renewal's. */
const PURCHASE_DATA: SchemaObject = {
  oneOf: [
    closed(obj({ purchase: ref('DomainPurchase') })),
    closed(
      obj({
        purchase: ref('DomainPurchase'),
        operation: { ...oneOfValues('renewal'), description: 'A renewal, not the registration' },
        renewal: ref('PurchaseRenewal'),
      }),
    ),
  ],
};

/** The event data schemas, by name in `components.schemas`. */
const DATA_SCHEMAS: Record<string, SchemaObject> = {
  DomainCreatedData: DOMAIN_CREATED_DATA,
  DomainChangeData: DOMAIN_CHANGE_DATA,
  DomainPurchaseEventData: PURCHASE_DATA,
  PurchaseRenewal: PURCHASE_RENEWAL,
};

/** What `data` holds, by event type: the same objects the REST API answers with, and typed extras. */
function dataSchema(type: string): SchemaObject {
  if (type.startsWith('domain_purchase.')) return ref('DomainPurchaseEventData');
  return ref(type === 'domain.created' ? 'DomainCreatedData' : 'DomainChangeData');
}

const messageName = (type: string): string =>
  type.replace(/(^|[._])([a-z])/g, (_m, _s, c: string) => c.toUpperCase()) + 'Event';

/** `events.{workspaceId}.<type>`: the subject the relay publishes to, built by its own function. */
const channelName = (type: string): string => eventSubject('', '{workspaceId}', type);

/**
 * The NATS subjects an internal service may subscribe to, as AsyncAPI 2.6, built from the event type
 * list and subject functions the relay uses and the schemas of the OpenAPI document (`Event`, `Domain`,
 * `DomainPurchase` and what they reference), so both documents describe one envelope.
 */
export function buildAsyncApiDocument(openapi: Json): Json {
  const components = openapi.components as { schemas?: Record<string, SchemaObject> } | undefined;
  const openapiSchemas = components?.schemas ?? {};
  const channels: Json = {};
  const messages: Json = {};
  for (const type of EVENT_TYPES) {
    const name = messageName(type);
    messages[name] = {
      name: type,
      title: type,
      contentType: 'application/json',
      headers: obj({ 'Nats-Msg-Id': str('The event id: JetStream drops a re-published copy within 10 minutes') }),
      payload: {
        allOf: [ref('Event'), obj({ type: { type: 'string', enum: [type] }, data: dataSchema(type) })],
      },
    };
    channels[channelName(type)] = {
      description: `JetStream stream \`EVENTS\`: every \`${type}\` event of one workspace, once per event id.`,
      parameters: { workspaceId: { $ref: '#/components/parameters/workspaceId' } },
      subscribe: { operationId: `on${name}`, message: { $ref: `#/components/messages/${name}` } },
    };
  }
  messages.EdgeInvalidation = {
    name: EDGE_INVALIDATE_SUBJECT,
    contentType: 'application/json',
    payload: obj({ hostname: str('Lowercase hostname that changed') }),
  };
  channels[EDGE_INVALIDATE_SUBJECT] = {
    description:
      'Internal-only, core NATS (not persisted): a certificate was stored or a domain changed or was deleted, ' +
      'so the edge replica writers copy the change log now instead of at their next poll. Not a stable contract.',
    subscribe: { operationId: 'onEdgeInvalidation', message: { $ref: '#/components/messages/EdgeInvalidation' } },
  };
  return {
    asyncapi: '2.6.0',
    id: 'urn:custom-domains:events',
    info: {
      title: 'Custom domains and domain registration: events on NATS',
      version: API_VERSION,
      description:
        'Every event of `/v1/events` (and of webhooks) is also published to the JetStream stream `EVENTS` on ' +
        '`events.<workspaceId>.<type>` with `Nats-Msg-Id` = event id (duplicate window 10 min, kept 7 days); ' +
        'consume it with a durable consumer on `events.>`. With `NATS_SUBJECT_PREFIX=<p>` every subject is ' +
        '`<p>.` + the subject below and the stream is `EVENTS_<p>`. Subjects not listed here (actors, cluster ' +
        'membership, shard leases) are internal to the service and may change without notice.',
    },
    defaultContentType: 'application/json',
    servers: {
      nats: { url: 'nats://localhost:4222', protocol: 'nats', description: 'The NATS of the deployment (NATS_URL)' },
    },
    channels,
    components: {
      messages,
      // The served document's schemas first; the catalogue fills in any a process's routes left out.
      schemas: { ...RESOURCE_SCHEMAS, ...openapiSchemas, ...DATA_SCHEMAS },
      parameters: { workspaceId: { description: 'The workspace id (`ws_...`)', schema: { type: 'string' } } },
    },
  };
}
