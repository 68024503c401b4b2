import { issuedKeySchema } from '@app/admin';
import { apiKeySchema } from '@app/api-keys';
import { connectInstructionsSchema } from '@app/connect';
import { connectSessionSchema, CUSTOMER_DOMAIN_FIELDS } from '@app/connect-sessions';
import { lookupRecordSchema } from '@app/dns';
import { dnsAppliedSchema } from '@app/dns-apply';
import { dnsRecordSchema, domainSchema } from '@app/domains';
import { ownershipChallengeSchema, preflightWarningSchema } from '@app/hostname-rules';
import { oauthClientSchema, scopesSchema } from '@app/oauth';
import { projectSchema } from '@app/projects';
import { purchaseSchema } from '@app/purchases';
import { registrarDnsRecordSchema } from '@app/registrar';
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
import { SchemaObject, freeForm, obj, oneOfValues, ref, str } from './schema';

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
  ConnectInstructions: connectInstructionsSchema,
  LookupRecord: lookupRecordSchema,
  DnsLookupResult: dnsLookupResultSchema,
  CaaCheckResult: caaCheckResultSchema,
  ProviderDetectResult: providerDetectResultSchema,
  PropagationResult: propagationResultSchema,
  TlsCheckResult: tlsCheckResultSchema,
  HostnameRecordCheck: hostnameCheckSchema,
  DomainPurchase: purchaseSchema,
  RegistrarDnsRecord: registrarDnsRecordSchema,
  ConnectSession: connectSessionSchema,
  DnsApplied: dnsAppliedSchema,
  Project: projectSchema,
  OAuthClient: oauthClientSchema,
  Deleted: obj({ deleted: { type: 'boolean', enum: [true] }, id: str() }),
  Scopes: scopesSchema,
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
