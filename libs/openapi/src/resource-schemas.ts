import { issuedKeySchema } from '@app/admin';
import { apiKeySchema } from '@app/api-keys';
import { ALL_SCOPES } from '@app/auth';
import { CONNECT_METHODS, DOMAIN_CONNECT_REASONS } from '@app/connect';
import { CUSTOMER_DOMAIN_FIELDS } from '@app/connect-sessions';
import { lookupRecordSchema } from '@app/dns';
import { DNS_PROVIDER_IDS, WRITE_ACTIONS } from '@app/dns-apply';
import { ownershipChallengeSchema, preflightWarningSchema } from '@app/hostname-rules';
import { DNS_RECORD_VIEW_TYPES, dnsRecordSchema, domainSchema } from '@app/domains';
import { CURRENCIES, PURCHASE_STATUSES } from '@app/purchases';
import { REGISTRAR_DNS_RECORD_TYPES } from '@app/registrar';
import {
  caaCheckResultSchema,
  dnsLookupResultSchema,
  hostnameCheckSchema,
  propagationResultSchema,
  providerDetectResultSchema,
  tlsCheckResultSchema,
} from '@app/tools';
import { deliverySchema, endpointSchema, eventSchema } from '@app/webhooks';
import { workspaceSchema } from '@app/workspaces';
import { ERROR_CODES } from './error-responses';
import { SchemaObject, arrayOf, bool, dateTime, freeForm, int, nullable, obj, oneOfValues, ref, str } from './schema';

/** The objects the API answers with (SPEC section 2), by schema name. DTO schemas come from the DTOs. */
export const RESOURCE_SCHEMAS: Record<string, SchemaObject> = {
  Error: obj(
    {
      error: { ...oneOfValues(...ERROR_CODES), description: 'Machine-readable code (SPEC section 7)' },
      message: str('Human-readable'),
      details: {
        ...freeForm,
        properties: { ownership: ref('OwnershipChallenge') },
        description:
          'Optional: fields, warnings, action and retryAfter, ...; a 409 `conflict` for a hostname another ' +
          'workspace holds carries `hostname` and `ownership` (an OwnershipChallenge)',
      },
    },
    ['details'],
  ),
  DnsRecord: dnsRecordSchema,
  PreflightWarning: preflightWarningSchema,
  OwnershipChallenge: ownershipChallengeSchema,
  Domain: domainSchema,
  DomainDeleted: obj({ deleted: { type: 'boolean', enum: [true] }, id: str(), hostname: str() }),
  Workspace: workspaceSchema,
  ApiKey: apiKeySchema,
  IssuedApiKey: issuedKeySchema,
  WebhookEndpoint: endpointSchema,
  Event: eventSchema,
  Delivery: deliverySchema,
  ConnectInstructions: obj({
    hostname: str(),
    provider: obj({ id: str(), name: str(), detected: bool }),
    apex: bool,
    method: oneOfValues(...CONNECT_METHODS),
    methodReason: str(),
    records: arrayOf(ref('DnsRecord')),
    steps: arrayOf(str()),
    quirks: arrayOf(str()),
    dashboardUrl: str(),
    domainConnect: obj(
      {
        supported: bool,
        reason: oneOfValues(...DOMAIN_CONNECT_REASONS),
        providerId: str(),
        providerName: str(),
        providerDisplayName: str("The provider's own display name, preferred in UI"),
        applyUrl: str('Send the customer here to approve the change'),
        width: int(),
        height: int(),
        urlControlPanel: str(),
      },
      ['reason', 'providerId', 'providerName', 'providerDisplayName', 'applyUrl', 'width', 'height', 'urlControlPanel'],
    ),
  }),
  LookupRecord: lookupRecordSchema,
  DnsLookupResult: dnsLookupResultSchema,
  CaaCheckResult: caaCheckResultSchema,
  ProviderDetectResult: providerDetectResultSchema,
  PropagationResult: propagationResultSchema,
  TlsCheckResult: tlsCheckResultSchema,
  HostnameRecordCheck: hostnameCheckSchema,
  DomainPurchase: obj({
    id: str('`pur_...`'),
    workspaceId: str(),
    hostname: str('Lowercased and trimmed'),
    years: int(),
    wholesaleCents: int('Registrar cost'),
    feeCents: int('Service fee'),
    totalCents: int('Amount charged: wholesale plus fee'),
    currency: oneOfValues(...CURRENCIES),
    registrar: str('Upstream registrar name'),
    registrarDomainId: nullable(str()),
    status: oneOfValues(...PURCHASE_STATUSES),
    registrant: obj({ firstName: str(), lastName: str(), email: str(), country: str() }),
    whoisPrivacyEnabled: bool,
    autoRenew: bool,
    expiresAt: dateTime(true),
    customerReference: nullable(str()),
    connectedDomainId: nullable(str('Present when autoConnect was used')),
    nameservers: arrayOf(str()),
    failure: nullable(obj({ code: str(), stage: str(), reason: str() })),
    createdAt: dateTime(),
    updatedAt: dateTime(),
  }),
  RegistrarDnsRecord: obj(
    {
      type: oneOfValues(...REGISTRAR_DNS_RECORD_TYPES),
      name: str('`@` for the apex, `www`, ...'),
      value: str(),
      ttl: int(),
      priority: int('MX only'),
    },
    ['priority'],
  ),
  ConnectSession: obj({
    token: str('Browser-safe, scoped to one domain; signed, not stored'),
    expiresAt: dateTime(),
    domainId: str(),
    hostname: str(),
  }),
  DnsApplied: obj({
    provider: oneOfValues(...DNS_PROVIDER_IDS),
    written: arrayOf(
      obj({
        id: str(),
        type: oneOfValues(...DNS_RECORD_VIEW_TYPES),
        name: str(),
        value: str(),
        ttl: int(),
        action: oneOfValues(...WRITE_ACTIONS),
      }),
    ),
    removed: int('Conflicting A, AAAA, CNAME or ALIAS records removed at the hostname'),
  }),
  Project: obj({
    id: str('`prj_...`'),
    name: str(),
    description: nullable(str()),
    metadata: freeForm,
    createdAt: dateTime(),
    updatedAt: dateTime(),
  }),
  OAuthClient: obj({
    clientId: str('`oac_...`'),
    workspaceId: str(),
    name: str(),
    scopes: ref('Scopes'),
    createdAt: dateTime(),
    revokedAt: dateTime(true),
  }),
  Deleted: obj({ deleted: { type: 'boolean', enum: [true] }, id: str() }),
  Scopes: { ...arrayOf(oneOfValues(...ALL_SCOPES)), description: 'OAuth scopes' },
};

/**
 * The Domain as a connect-session token (the end customer's browser) reads it: only the fields of
 * CUSTOMER_DOMAIN_FIELDS, none other (libs/connect-sessions).
 */
RESOURCE_SCHEMAS.ConnectSessionDomain = {
  ...obj(
    Object.fromEntries(CUSTOMER_DOMAIN_FIELDS.map((field) => [field, RESOURCE_SCHEMAS.Domain.properties![field]])),
  ),
  additionalProperties: false,
  description:
    "A Domain as a connect-session token sees it (the widget): no originUrl, metadata, projectId, routing settings or timestamps, which stay the SaaS's",
};
