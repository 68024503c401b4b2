import type { ErrorCode } from '@app/http';
import { SchemaObject, arrayOf, bool, envelope, freeForm, int, obj, oneOfValues, page, ref, str } from './schema';

/** What the document says of one operation beyond what the route's declaration shows. */
export interface OperationDoc {
  summary: string;
  /** The success body (status from the route: 201 for POST unless @HttpCode says otherwise). */
  response: SchemaObject;
  /** Errors specific to the operation; the generic ones (401, 404, 429, ...) follow from the route. */
  errors?: ErrorCode[];
  description?: string;
  /** Not JSON (metrics, HTML). */
  contentType?: string;
  /** A body not described by a DTO (the OAuth endpoints take form parameters, RFC 6749). */
  requestBody?: { contentType: string; schema: SchemaObject };
}

const domain = envelope('domain', ref('Domain'));
const project = envelope('project', ref('Project'));
const purchase = envelope('purchase', ref('DomainPurchase'));
const oauthClient = envelope('client', ref('OAuthClient'));
const FORM = 'application/x-www-form-urlencoded';
const clientAuth = {
  client_id: str('With client_secret_post; or HTTP Basic (client_secret_basic)'),
  client_secret: str(),
};
const oauthErrors: ErrorCode[] = ['invalid_request', 'invalid_client'];

/**
 * One entry per route of the API, keyed `METHOD /path`. The OpenAPI test fails when a route has no
 * entry here, so a new endpoint cannot ship undocumented.
 */
export const OPERATIONS: Record<string, OperationDoc> = {
  'GET /healthz': { summary: 'Liveness', response: obj({ ok: bool }) },
  'GET /readyz': {
    summary: 'Readiness: database and bus reachable',
    response: obj({ ok: bool, checks: freeForm }),
    errors: ['service_unavailable'],
  },
  'GET /metrics': { summary: 'Prometheus metrics', response: str(), contentType: 'text/plain' },
  'GET /v1/workspace': {
    summary: 'The workspace of the calling credential',
    response: envelope('workspace', ref('Workspace')),
  },

  'GET /v1/domains': { summary: 'List connected domains', response: page('domains', ref('Domain')) },
  'POST /v1/domains': {
    summary: 'Connect a hostname',
    description: 'Returns the DNS records the owner must create; the domain stays pending until they resolve.',
    response: obj({ domain: ref('Domain'), warnings: arrayOf(ref('PreflightWarning')) }, ['warnings']),
    errors: ['preflight_failed', 'billing_required', 'conflict'],
  },
  'GET /v1/domains/{id}': { summary: 'Get a domain', response: domain },
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
    response: domain,
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
      'With it: read the domain and its instructions, check it, dns/apply it. Everything else answers 403; expired or tampered tokens 401.',
    response: envelope('connectSession', ref('ConnectSession')),
  },
  'POST /v1/domains/{id}/dns/apply': {
    summary: "Write the records at the customer's DNS provider with their token (used once, never stored)",
    description:
      'Touches only conflicting A, AAAA, CNAME and ALIAS records at the hostname; MX, TXT and other names stay. Cloudflare records are created with proxied: false.',
    response: obj({ applied: ref('DnsApplied'), domain: ref('Domain') }),
    errors: [
      'dns_token_invalid',
      'dns_token_insufficient_scope',
      'dns_zone_not_found',
      'dns_write_refused',
      'service_unavailable',
    ],
  },
  'GET /widget.js': {
    summary: 'The embeddable widget: <script src="/widget.js"> then CustomDomainWidget.mount(element, {token})',
    response: str(),
    contentType: 'application/javascript',
  },
  'GET /widget/demo': {
    summary: 'A page showing the widget (?token=<connect-session token>)',
    response: str(),
    contentType: 'text/html',
  },
  'POST /v1/domains/bulk': {
    summary: 'Connect up to 100 hostnames in one call',
    description:
      'Each item goes through the same path as POST /v1/domains; the answer has a result per item, in input order.',
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

  'GET /v1/tools/dns-lookup': {
    summary: 'Keyless: DNS records of a hostname (A, AAAA, CNAME, TXT, NS, MX, CAA)',
    response: ref('DnsLookupResult'),
    errors: ['service_unavailable'],
  },
  'GET /v1/tools/caa-check': {
    summary: 'Keyless: would our certificate authorities be allowed to issue?',
    response: ref('CaaCheckResult'),
    errors: ['service_unavailable'],
  },
  'GET /v1/tools/dns-provider': {
    summary: "Keyless: the hostname's DNS provider, from its nameservers",
    response: ref('ProviderDetectResult'),
    errors: ['service_unavailable'],
  },
  'GET /v1/tools/propagation': {
    summary: 'Keyless: what several public resolvers answer, against an expected value',
    response: ref('PropagationResult'),
  },
  'GET /v1/tools/tls-check': {
    summary: 'Keyless: the certificate chain a public hostname serves (private addresses refused)',
    response: ref('TlsCheckResult'),
  },
  'POST /v1/dns/check-records-single': {
    summary: 'Whether records exist as expected at one hostname',
    response: ref('HostnameRecordCheck'),
  },
  'POST /v1/dns/check-records-batch': {
    summary: 'Record checks for up to 100 hostnames',
    response: obj({ results: arrayOf(ref('HostnameRecordCheck')) }),
  },

  'GET /v1/domain-purchases/check': {
    summary: 'Availability and the one-year price a purchase would charge (read-only, free, no reservation)',
    response: obj({ hostname: str(), available: bool, totalCents: int(), currency: oneOfValues('USD') }),
    errors: ['registrar_error', 'service_unavailable'],
  },
  'GET /v1/domain-purchases': { summary: 'List purchases', response: page('purchases', ref('DomainPurchase')) },
  'POST /v1/domain-purchases': {
    summary: 'Buy a domain: charge the saved card, register, optionally connect',
    description:
      'Steps: live price (409 price_changed above maxTotalCents, no charge), charge (402 billing_required), ' +
      'register (refused: refunded, 502 registration_failed with details.purchaseId), autoConnect (failure: rolled back and refunded).',
    response: purchase,
    errors: [
      'billing_required',
      'unavailable',
      'price_changed',
      'conflict',
      'registration_failed',
      'service_unavailable',
    ],
  },
  'GET /v1/domain-purchases/{id}': { summary: 'Get a purchase', response: purchase },
  'PATCH /v1/domain-purchases/{id}': {
    summary: 'Turn auto-renew on or off (off: the domain lapses at expiresAt)',
    response: purchase,
  },
  'GET /v1/domain-purchases/{id}/details': {
    summary: 'The purchase and what the registrar reports now',
    response: obj({ purchase: ref('DomainPurchase'), live: freeForm }),
    errors: ['registrar_error', 'service_unavailable'],
  },
  'GET /v1/domain-purchases/{id}/dns': {
    summary: "The registrar's DNS records",
    response: obj({ hostname: str(), records: arrayOf(ref('RegistrarDnsRecord')) }),
    errors: ['conflict', 'registrar_error', 'service_unavailable'],
  },
  'PUT /v1/domain-purchases/{id}/dns': {
    summary: "Replace the registrar's whole record set (GET first to add a record)",
    response: obj({ hostname: str(), records: arrayOf(ref('RegistrarDnsRecord')) }),
    errors: ['conflict', 'registrar_error', 'service_unavailable'],
  },
  'PUT /v1/domain-purchases/{id}/nameservers': {
    summary: 'Custom nameservers (0-13); an empty list restores the registrar defaults',
    response: obj({ hostname: str(), nameservers: arrayOf(str()) }),
    errors: ['conflict', 'registrar_error', 'service_unavailable'],
  },
  'POST /v1/domain-purchases/{id}/renew': {
    summary: 'Charge and push expiresAt out by years',
    response: purchase,
    errors: ['billing_required', 'conflict', 'registrar_error', 'service_unavailable'],
  },

  'GET /v1/projects': { summary: 'List projects', response: page('projects', ref('Project')) },
  'POST /v1/projects': { summary: 'Create a project', response: project },
  'GET /v1/projects/{id}': { summary: 'Get a project', response: project },
  'PATCH /v1/projects/{id}': { summary: 'Change a project', response: project },
  'DELETE /v1/projects/{id}': {
    summary: 'Delete a project (refused while domains use it)',
    response: ref('Deleted'),
    errors: ['conflict'],
  },

  'GET /.well-known/oauth-authorization-server': {
    summary: 'OAuth 2.0 authorization server metadata (RFC 8414)',
    response: freeForm,
  },
  'POST /oauth/token': {
    summary: 'Access token by the client credentials grant (RFC 6749 4.4)',
    requestBody: {
      contentType: FORM,
      schema: obj({ grant_type: oneOfValues('client_credentials'), scope: str('Space-separated'), ...clientAuth }, [
        'scope',
        'client_id',
        'client_secret',
      ]),
    },
    response: obj({
      access_token: str('`oat_...`'),
      token_type: oneOfValues('Bearer'),
      expires_in: int(),
      scope: str(),
    }),
    errors: [...oauthErrors, 'unsupported_grant_type', 'invalid_scope'],
  },
  'POST /oauth/revoke': {
    summary: 'Revoke an access token (RFC 7009); unknown tokens answer 200 too',
    requestBody: {
      contentType: FORM,
      schema: obj({ token: str(), token_type_hint: str(), ...clientAuth }, [
        'token_type_hint',
        'client_id',
        'client_secret',
      ]),
    },
    response: obj({}),
    errors: oauthErrors,
  },
  'POST /oauth/introspect': {
    summary: 'Token introspection (RFC 7662)',
    requestBody: {
      contentType: FORM,
      schema: obj({ token: str(), token_type_hint: str(), ...clientAuth }, [
        'token_type_hint',
        'client_id',
        'client_secret',
      ]),
    },
    response: obj(
      {
        active: bool,
        scope: str(),
        client_id: str(),
        token_type: str(),
        exp: int(),
        iat: int(),
        sub: str(),
      },
      ['scope', 'client_id', 'token_type', 'exp', 'iat', 'sub'],
    ),
    errors: oauthErrors,
  },
  'POST /admin/workspaces/{id}/oauth-clients': {
    summary: 'Register an OAuth client (the secret is shown once)',
    response: obj({ client: ref('OAuthClient'), client_id: str(), client_secret: str('`ocs_...`, shown once') }),
  },
  'GET /admin/workspaces/{id}/oauth-clients': {
    summary: "A workspace's OAuth clients",
    response: obj({ clients: arrayOf(ref('OAuthClient')) }),
  },
  'DELETE /admin/workspaces/{id}/oauth-clients/{clientId}': {
    summary: 'Revoke an OAuth client and its tokens',
    response: oauthClient,
  },

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
    summary: 'Replace the signing secret (the new one is shown once)',
    response: envelope('endpoint', ref('WebhookEndpoint')),
  },
  'GET /v1/webhook-endpoints/{id}/deliveries': {
    summary: 'Deliveries to an endpoint',
    response: page('deliveries', ref('Delivery')),
  },
  'GET /v1/events': { summary: 'List events, newest first', response: page('events', ref('Event')) },
  'GET /v1/events/{id}': { summary: 'Get an event', response: ref('Event') },
  'POST /v1/events/{id}/replay': {
    summary: 'Deliver an event again',
    response: obj({ deliveries: arrayOf(ref('Delivery')) }),
  },

  'POST /admin/workspaces': { summary: 'Create a workspace and its first API key', response: ref('IssuedApiKey') },
  'GET /admin/workspaces/{id}': {
    summary: 'Get a workspace and its keys',
    response: obj({ workspace: ref('Workspace'), apiKeys: arrayOf(ref('ApiKey')) }),
  },
  'POST /admin/workspaces/{id}/api-keys': { summary: 'Create an API key (shown once)', response: ref('IssuedApiKey') },
  'DELETE /admin/api-keys/{keyId}': { summary: 'Revoke an API key', response: envelope('apiKey', ref('ApiKey')) },
  'PUT /admin/workspaces/{id}/payment-method': {
    summary: 'Save the workspace card',
    response: envelope('workspace', ref('Workspace')),
  },
  'DELETE /admin/workspaces/{id}/payment-method': {
    summary: 'Remove the saved card',
    response: envelope('workspace', ref('Workspace')),
  },
  'GET /admin/cluster': {
    summary: 'Actor cluster: nodes, shards owned, resident actors',
    response: obj({ shardCount: int(), unowned: int(), nodes: arrayOf(freeForm) }),
  },
  'GET /edge/ask': {
    summary: 'Caddy on-demand TLS: 200 only for a live domain with correct DNS',
    response: str(),
    contentType: 'text/plain',
  },
  'GET /openapi.json': { summary: 'This document', response: freeForm },
  'GET /docs': { summary: 'API reference page', response: str(), contentType: 'text/html' },
  'GET /docs/{asset}': {
    summary: 'Assets of the reference page',
    response: str(),
    contentType: 'application/octet-stream',
  },
};
