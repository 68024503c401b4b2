import { SchemaObject, arrayOf, envelope, int, obj, page, ref, str } from '../schema';
import type { OperationDoc } from './operation-doc';

const domain = envelope('domain', ref('Domain'));
/** Routes a connect-session token may call answer it the customer's view of the domain. */
const sessionDomain: SchemaObject = {
  oneOf: [ref('Domain'), ref('ConnectSessionDomain')],
  description: 'A Domain; called with a connect-session token, a ConnectSessionDomain',
};
const SESSION_VIEW =
  " Called with a connect-session token, `domain` is a ConnectSessionDomain: the widget's fields, without " +
  "originUrl, metadata, projectId, routing settings and timestamps (the SaaS's own).";

/** Connected domains, connect sessions, dns/apply and the widget. */
export const DOMAIN_OPERATIONS: Record<string, OperationDoc> = {
  'GET /v1/domains': { summary: 'List connected domains', response: page('domains', ref('Domain')) },
  'POST /v1/domains': {
    summary: 'Connect a hostname',
    description:
      'Returns the DNS records the owner must create; the domain stays pending until they resolve. `warnings` ' +
      'name CAA and DNS mistakes already visible. A hostname held by another workspace is 409 `conflict` with ' +
      '`details.ownership` (an OwnershipChallenge): once that TXT record resolves, the same request answers 201 ' +
      "and the holder's domain fails with `statusReason: moved_to_another_owner` (webhook `domain.failed`). " +
      'Within one workspace a taken hostname stays a plain 409.',
    response: obj({ domain: ref('Domain'), warnings: arrayOf(ref('PreflightWarning')) }, ['warnings']),
    errors: ['preflight_failed', 'billing_required', 'conflict'],
  },
  'GET /v1/domains/{id}': {
    summary: 'Get a domain',
    description: `Connect-session tokens allowed (their own domain).${SESSION_VIEW}`,
    response: envelope('domain', sessionDomain),
  },
  'PATCH /v1/domains/{id}': {
    summary: 'Change routing settings (hostname is immutable)',
    response: domain,
    errors: ['preflight_failed'],
  },
  'DELETE /v1/domains/{id}': {
    summary: 'Remove a domain, its certificate and edge route',
    response: ref('DomainDeleted'),
  },
  'POST /v1/domains/{id}/check': {
    summary: 'Run the DNS and SSL checks now',
    description: `Connect-session tokens allowed (their own domain).${SESSION_VIEW}`,
    response: envelope('domain', sessionDomain),
    errors: ['service_unavailable'],
  },
  'GET /v1/domains/{id}/instructions': {
    summary: 'Provider-aware DNS instructions, with Domain Connect when the provider supports it',
    description:
      'Never fails on unknown providers (provider.detected false, generic steps). Connect-session tokens allowed.',
    response: envelope('instructions', ref('ConnectInstructions')),
  },
  'POST /v1/domains/{id}/connect-session': {
    summary: 'Mint a browser-safe token for the widget, scoped to this domain',
    description:
      'With it: read the domain (as a ConnectSessionDomain) and its instructions, check it, dns/apply it. ' +
      'Everything else answers 403; expired or tampered tokens 401.',
    response: envelope('connectSession', ref('ConnectSession')),
  },
  'POST /v1/domains/{id}/dns/apply': {
    summary: "Write the records at the customer's DNS provider with their token (used once, never stored)",
    description:
      'Touches only conflicting A, AAAA, CNAME and ALIAS records at the hostname; MX, TXT and other names stay. ' +
      `Cloudflare records are created with proxied: false.${SESSION_VIEW}`,
    response: obj({ applied: ref('DnsApplied'), domain: sessionDomain }),
    errors: [
      'dns_token_invalid',
      'dns_token_insufficient_scope',
      'dns_zone_not_found',
      'dns_write_refused',
      'service_unavailable',
    ],
  },
  'GET /widget.js': {
    summary: 'The embeddable widget: load `/widget.js`, then `CustomDomainWidget.mount(element, {token})`',
    response: str(),
    contentType: 'application/javascript',
  },
  'GET /widget/demo': {
    summary: 'A page showing the widget (?token=<connect-session token>)',
    query: { token: { type: 'string', description: 'A connect-session token' } },
    response: str(),
    contentType: 'text/html',
  },
  'GET /connect': {
    summary:
      "The end customer's page behind a connect link (?token=<connect-session token>): the widget, for the workspace that sent it",
    query: { token: { type: 'string', description: 'A connect-session token' } },
    response: str(),
    contentType: 'text/html',
  },
  'POST /v1/domains/bulk': {
    summary: 'Connect up to 100 hostnames in one call',
    description:
      'Each item goes through the same path as POST /v1/domains; the answer has a result per item, in input order. ' +
      'An item that is not a valid `CreateDomainDto` fails alone, as a 400 in its result (`x-item-errors`).',
    itemErrors: true,
    response: obj({
      results: arrayOf(
        obj(
          {
            index: int(),
            status: int('201, or the status the item alone would have had'),
            domain: ref('Domain'),
            warnings: arrayOf(ref('PreflightWarning')),
            error: ref('Error'),
          },
          ['domain', 'warnings', 'error'],
        ),
      ),
      created: int(),
      failed: int(),
    }),
  },
};
