import type { AuditAction } from './console-audit.store';

/** The parts of the audited routes' answers the log reads (each route answers one of them). */
export interface AuditedAnswer {
  domain?: { id?: string; hostname?: string };
  hostname?: string;
  endpoint?: { id?: string; url?: string };
  workspace?: { id?: string; name?: string };
  apiKeyId?: string;
  apiKey?: { workspaceId?: string };
}

/** What one audited API or admin route records: its action, and its target (id, name, workspace) from its answer. */
export interface ApiAuditRoute {
  action: AuditAction;
  target: (
    answer: AuditedAnswer,
    params: Record<string, string | undefined>,
  ) => { id?: string; name?: string; workspaceId?: string };
}

/**
 * The changes made through /v1 and /admin that the audit log records beside the console's own
 * (issue 34: domains created or deleted through the API, workspaces made by the admin CLI, keys),
 * declared by route like the console's `@Audited`.
 */
export const API_AUDITED: Record<string, ApiAuditRoute> = {
  'POST /v1/domains': { action: 'domain.created', target: (a) => ({ id: a.domain?.id, name: a.domain?.hostname }) },
  'PATCH /v1/domains/:id': {
    action: 'domain.updated',
    target: (a, p) => ({ id: p.id, name: a.domain?.hostname }),
  },
  'DELETE /v1/domains/:id': { action: 'domain.deleted', target: (a, p) => ({ id: p.id, name: a.hostname }) },
  'POST /v1/webhook-endpoints': {
    action: 'webhook_endpoint.created',
    target: (a) => ({ id: a.endpoint?.id, name: a.endpoint?.url }),
  },
  'DELETE /v1/webhook-endpoints/:id': { action: 'webhook_endpoint.deleted', target: (_, p) => ({ id: p.id }) },
  'POST /admin/workspaces': {
    action: 'workspace.created',
    target: (a) => ({ id: a.workspace?.id, name: a.workspace?.name, workspaceId: a.workspace?.id }),
  },
  'POST /admin/workspaces/:id/api-keys': {
    action: 'api_key.created',
    target: (a, p) => ({ id: a.apiKeyId, workspaceId: p.id }),
  },
  'DELETE /admin/api-keys/:keyId': {
    action: 'api_key.revoked',
    target: (a, p) => ({ id: p.keyId, workspaceId: a.apiKey?.workspaceId }),
  },
};
