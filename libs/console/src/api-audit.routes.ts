import type { AuditAction } from './console-audit.store';

type Named = { id?: string; hostname?: string };

/** The parts of the audited routes' answers the log reads (each route answers one of them). Never a secret. */
interface AuditedAnswer {
  domain?: Named & { originUrl?: string };
  hostname?: string;
  endpoint?: { id?: string; url?: string; events?: string[]; enabled?: boolean };
  workspace?: { id?: string; name?: string; hasPaymentMethod?: boolean };
  apiKeyId?: string;
  apiKey?: { workspaceId?: string };
  purchase?: Named & { years?: number; status?: string; totalCents?: number; autoRenew?: boolean };
  renewal?: { years?: number; status?: string; totalCents?: number; expiresAt?: string | null };
  records?: unknown[];
  nameservers?: string[];
  project?: { id?: string; name?: string };
  client?: { name?: string; scopes?: string[] };
  client_id?: string;
  event?: { id?: string };
  deliveries?: unknown[];
  results?: { status?: number; domain?: Named }[];
  applied?: { provider?: string };
}

/** Who or what an entry is about: its id, its name, its workspace (else the caller's), and what changed. */
export interface AuditTarget {
  id?: string;
  name?: string;
  workspaceId?: string;
  detail?: Record<string, unknown>;
}

type Params = Record<string, string | undefined>;
type Body = Record<string, unknown>;

/** What one audited API or admin route records: its action, and its target(s) from its answer. */
export interface ApiAuditRoute {
  action: AuditAction;
  target: (answer: AuditedAnswer, params: Params, body: Body) => AuditTarget | AuditTarget[];
  /**
   * A refusal that still left a record behind (a purchase whose card was declined, or charged and
   * refunded: the error names it in `details.purchaseId`): its target, recorded with the outcome.
   */
  refused?: (error: Refusal, params: Params, body: Body) => AuditTarget | undefined;
}

interface Refusal {
  code: string;
  details: Record<string, unknown>;
}

/**
 * The refusals of a purchase or renewal that are its outcome (declined, refused and refunded, or its
 * input refused after the charge). Not a pending one (503, retried automatically, answered later with
 * its outcome) nor a conflict (409: nothing was tried).
 */
const FINAL_REFUSALS = new Set(['billing_required', 'registration_failed', 'registrar_error', 'bad_request']);

const text = (v: unknown) => (typeof v === 'string' ? v : undefined);
const purchase = (a: AuditedAnswer, id?: string): AuditTarget => ({
  id: id ?? a.purchase?.id,
  name: a.purchase?.hostname ?? a.hostname,
});
/** The purchase a final refusal names (declined, refunded), by its hostname (the body's for a new one). */
const writtenPurchase = ({ code, details }: Refusal, _: Params, body: Body): AuditTarget | undefined => {
  const id = text(details.purchaseId);
  if (!id || !FINAL_REFUSALS.has(code)) return undefined;
  return { id, name: text(details.hostname) ?? text(body.hostname) };
};

/**
 * The changes made through /v1 and /admin that the audit log records beside the console's own
 * (every change, with who made it), declared by route like the console's `@Audited`.
 * Only a change that succeeded (or a purchase refusal that wrote one) is recorded; a retry answered
 * from the stored response of its Idempotency-Key changes nothing and is not recorded again.
 *
 * Not audited, on purpose: POST /v1/domains/{id}/check (a DNS probe, polled by clients; what it finds
 * is in the domain's timeline), POST /v1/domains/{id}/connect-session (a stateless signed token,
 * minted by SaaS backends per widget view: it changes nothing stored), /v1/dns/check-records-* and
 * /v1/tools/* (reads), /oauth/token, /oauth/introspect and /oauth/revoke (machine authentication, not
 * configuration), and /admin/console-users (its controller records user.created and
 * user.password_reset itself).
 */
export const API_AUDITED: Record<string, ApiAuditRoute> = {
  'POST /v1/domains': { action: 'domain.created', target: (a) => ({ id: a.domain?.id, name: a.domain?.hostname }) },
  'POST /v1/domains/bulk': {
    action: 'domain.created',
    target: (a) =>
      (a.results ?? [])
        .filter((r) => r.status === 201)
        .map((r) => ({ id: r.domain?.id, name: r.domain?.hostname, detail: { bulk: true } })),
  },
  'PATCH /v1/domains/:id': {
    action: 'domain.updated',
    target: (a, p) => ({ id: p.id, name: a.domain?.hostname }),
  },
  'DELETE /v1/domains/:id': { action: 'domain.deleted', target: (a, p) => ({ id: p.id, name: a.hostname }) },
  // The provider's token is in the body; only the provider's name is kept.
  'POST /v1/domains/:id/dns/apply': {
    action: 'domain.dns_applied',
    target: (a, p) => ({ id: p.id, name: a.domain?.hostname, detail: { provider: a.applied?.provider } }),
  },
  'POST /v1/domain-purchases': {
    action: 'purchase.bought',
    target: (a) => ({
      ...purchase(a),
      detail: { years: a.purchase?.years, status: a.purchase?.status, totalCents: a.purchase?.totalCents },
    }),
    refused: writtenPurchase,
  },
  'PATCH /v1/domain-purchases/:id': {
    action: 'purchase.auto_renew_set',
    target: (a, p) => ({ ...purchase(a, p.id), detail: { autoRenew: a.purchase?.autoRenew } }),
  },
  'PUT /v1/domain-purchases/:id/dns': {
    action: 'purchase.dns_replaced',
    target: (a, p) => ({ ...purchase(a, p.id), detail: { records: a.records?.length ?? 0 } }),
  },
  'PUT /v1/domain-purchases/:id/nameservers': {
    action: 'purchase.nameservers_set',
    target: (a, p) => ({ ...purchase(a, p.id), detail: { nameservers: a.nameservers ?? [] } }),
  },
  'POST /v1/domain-purchases/:id/connect': {
    action: 'purchase.connected',
    target: (a, p) => ({
      ...purchase(a, p.id),
      detail: { domainId: a.domain?.id, originUrl: a.domain?.originUrl },
    }),
  },
  'POST /v1/domain-purchases/:id/renew': {
    action: 'purchase.renewed',
    target: (a, p) => ({
      ...purchase(a, p.id),
      detail: {
        years: a.renewal?.years,
        status: a.renewal?.status,
        totalCents: a.renewal?.totalCents,
        expiresAt: a.renewal?.expiresAt,
      },
    }),
    refused: writtenPurchase,
  },
  'POST /v1/projects': { action: 'project.created', target: (a) => ({ id: a.project?.id, name: a.project?.name }) },
  'PATCH /v1/projects/:id': { action: 'project.updated', target: (a, p) => ({ id: p.id, name: a.project?.name }) },
  'DELETE /v1/projects/:id': { action: 'project.deleted', target: (_, p) => ({ id: p.id }) },
  'POST /v1/webhook-endpoints': {
    action: 'webhook_endpoint.created',
    target: (a) => ({ id: a.endpoint?.id, name: a.endpoint?.url }),
  },
  'PATCH /v1/webhook-endpoints/:id': {
    action: 'webhook_endpoint.updated',
    target: (a, p) => ({
      id: p.id,
      name: a.endpoint?.url,
      detail: { events: a.endpoint?.events, enabled: a.endpoint?.enabled },
    }),
  },
  'DELETE /v1/webhook-endpoints/:id': { action: 'webhook_endpoint.deleted', target: (_, p) => ({ id: p.id }) },
  // The answer holds the new secret; only the endpoint's URL is kept.
  'POST /v1/webhook-endpoints/:id/rotate-secret': {
    action: 'webhook_endpoint.secret_rotated',
    target: (a, p) => ({ id: p.id, name: a.endpoint?.url }),
  },
  'POST /v1/webhook-endpoints/:id/test': {
    action: 'webhook_endpoint.test_sent',
    target: (a, p) => ({ id: p.id, detail: { eventId: a.event?.id } }),
  },
  'POST /v1/events/:id/replay': {
    action: 'event.replayed',
    target: (a, p) => ({ id: p.id, detail: { deliveries: a.deliveries?.length ?? 0 } }),
  },
  'POST /admin/workspaces': {
    action: 'workspace.created',
    target: (a) => ({ id: a.workspace?.id, name: a.workspace?.name, workspaceId: a.workspace?.id }),
  },
  'PUT /admin/workspaces/:id/payment-method': {
    action: 'workspace.card_set',
    target: (a, p, body) => ({
      id: p.id,
      name: a.workspace?.name,
      workspaceId: p.id,
      detail: { paymentMethod: text(body.paymentMethod) },
    }),
  },
  'DELETE /admin/workspaces/:id/payment-method': {
    action: 'workspace.card_set',
    target: (a, p) => ({ id: p.id, name: a.workspace?.name, workspaceId: p.id, detail: { paymentMethod: null } }),
  },
  'POST /admin/workspaces/:id/api-keys': {
    action: 'api_key.created',
    target: (a, p) => ({ id: a.apiKeyId, workspaceId: p.id }),
  },
  'DELETE /admin/api-keys/:keyId': {
    action: 'api_key.revoked',
    target: (a, p) => ({ id: p.keyId, workspaceId: a.apiKey?.workspaceId }),
  },
  // The answer holds the client's secret; only its name and scopes are kept.
  'POST /admin/workspaces/:id/oauth-clients': {
    action: 'oauth_client.created',
    target: (a, p) => ({
      id: a.client_id,
      name: a.client?.name,
      workspaceId: p.id,
      detail: { scopes: a.client?.scopes },
    }),
  },
  'DELETE /admin/workspaces/:id/oauth-clients/:clientId': {
    action: 'oauth_client.revoked',
    target: (a, p) => ({ id: p.clientId, name: a.client?.name, workspaceId: p.id }),
  },
};
