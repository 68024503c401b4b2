import { ALL_SCOPES } from '@app/auth';
import { CONNECT_METHODS, DOMAIN_CONNECT_REASONS } from '@app/connect';
import { LOOKUP_TYPES } from '@app/dns';
import { DNS_PROVIDER_IDS, WRITE_ACTIONS } from '@app/dns-apply';
import { PREFLIGHT_WARNING_CODES } from '@app/hostname-rules';
import {
  DNS_RECORD_PURPOSES,
  DNS_RECORD_VIEW_TYPES,
  DOMAIN_MODES,
  DOMAIN_STATUSES,
  MONITOR_STATUSES,
  STATUS_REASONS,
  REDIRECT_STATUSES,
} from '@app/domains';
import { CERTIFICATE_ATTEMPT_OUTCOMES } from '@app/kernel';
import { GRANT_TYPES } from '@app/oauth';
import { CURRENCIES, PURCHASE_STATUSES, RENEWAL_STEPS } from '@app/purchases';
import { REGISTRAR_DNS_RECORD_TYPES } from '@app/registrar';
import { LOOKUP_RCODES, LOOKUP_STATUSES, RECORD_STATUSES, RESOLVER_STATUSES } from '@app/tools';
import { DELIVERY_STATUSES } from '@app/webhooks';
import { ERROR_CODES } from './error-responses';
import { OPERATIONS } from './operations';
import { RESOURCE_SCHEMAS } from './resource-schemas';

/** Every enum of the hand-written schemas and the code's list it must equal, by where it sits. */
const FROM_CODE: Record<string, readonly unknown[]> = {
  'Error.error': ERROR_CODES,
  'DnsRecord.type': DNS_RECORD_VIEW_TYPES,
  'DnsRecord.purpose': DNS_RECORD_PURPOSES,
  'PreflightWarning.code': PREFLIGHT_WARNING_CODES,
  'Domain.mode': DOMAIN_MODES,
  'Domain.redirectStatus': REDIRECT_STATUSES,
  'Domain.status': DOMAIN_STATUSES,
  'Domain.statusReason': STATUS_REASONS,
  'Domain.monitorStatus': MONITOR_STATUSES,
  'Domain.certificate.attempts.outcome': CERTIFICATE_ATTEMPT_OUTCOMES,
  'ConnectSessionDomain.status': DOMAIN_STATUSES,
  'ConnectSessionDomain.statusReason': STATUS_REASONS,
  'ConnectSessionDomain.monitorStatus': MONITOR_STATUSES,
  'ConnectSessionDomain.certificate.attempts.outcome': CERTIFICATE_ATTEMPT_OUTCOMES,
  'Delivery.status': DELIVERY_STATUSES,
  'ConnectInstructions.method': CONNECT_METHODS,
  'ConnectInstructions.domainConnect.reason': DOMAIN_CONNECT_REASONS,
  'LookupRecord.type': LOOKUP_TYPES,
  'DnsLookupResult.results.type': LOOKUP_TYPES,
  'PropagationResult.type': LOOKUP_TYPES,
  'HostnameRecordCheck.records.type': LOOKUP_TYPES,
  'DnsLookupResult.rcode': LOOKUP_RCODES,
  'DnsLookupResult.results.status': LOOKUP_STATUSES,
  'PropagationResult.resolvers.status': RESOLVER_STATUSES,
  'HostnameRecordCheck.records.status': RECORD_STATUSES,
  'DomainPurchase.currency': CURRENCIES,
  'DomainPurchase.status': PURCHASE_STATUSES,
  'RegistrarDnsRecord.type': REGISTRAR_DNS_RECORD_TYPES,
  'DnsApplied.provider': DNS_PROVIDER_IDS,
  'DnsApplied.written.type': DNS_RECORD_VIEW_TYPES,
  'DnsApplied.written.action': WRITE_ACTIONS,
  Scopes: ALL_SCOPES,
  'GET /v1/domain-purchases/check.currency': CURRENCIES,
  'POST /v1/domain-purchases/{id}/renew.renewal.currency': CURRENCIES,
  'POST /v1/domain-purchases/{id}/renew.renewal.status': RENEWAL_STEPS,
  'POST /oauth/token.grant_type': GRANT_TYPES,
};

/** Enums that stay literal: single fixed values, not lists the code could grow. */
const LITERAL: Record<string, readonly unknown[]> = {
  // The ownership challenge is a TXT record by construction (hostname-rules/ownership-challenge.ts).
  'OwnershipChallenge.type': ['TXT'],
  // Constant markers of an answer, not values of a field.
  'DomainDeleted.deleted': [true],
  'Deleted.deleted': [true],
  'GET /edge/ask.allowed': [true],
  // RFC 6750: the only token type this server issues (OAuthTokens answers the literal).
  'POST /oauth/token.token_type': ['Bearer'],
};

/** Keys of the schema tree that only nest, so a path reads like the JSON it describes. */
const NESTING = new Set(['properties', 'items', 'schema', 'response', 'requestBody']);

function enumsIn(node: unknown, path: string[], found: Map<string, unknown[]>): Map<string, unknown[]> {
  if (Array.isArray(node)) node.forEach((item) => enumsIn(item, path, found));
  else if (node && typeof node === 'object') {
    for (const [key, value] of Object.entries(node)) {
      // A nullable enum lists null too (OpenAPI 3.0): the values are the code's.
      if (key === 'enum')
        found.set(
          path.join('.'),
          (value as unknown[]).filter((v) => v !== null),
        );
      else enumsIn(value, NESTING.has(key) ? path : [...path, key], found);
    }
  }
  return found;
}

describe('the enums of the API document come from the code', () => {
  const found = enumsIn({ ...RESOURCE_SCHEMAS, ...OPERATIONS }, [], new Map());

  it.each(Object.entries(FROM_CODE))('%s equals its source list', (path, source) => {
    expect(found.get(path)).toEqual([...source]);
  });

  it('has no enum outside the two tables', () => {
    const known = new Set([...Object.keys(FROM_CODE), ...Object.keys(LITERAL)]);
    expect([...found.keys()].filter((path) => !known.has(path))).toEqual([]);
    for (const [path, values] of Object.entries(LITERAL)) expect(found.get(path)).toEqual(values);
  });
});
