import { arrayOf, bool, envelope, freeForm, int, obj, page, ref, str } from '../schema';
import type { OperationDoc } from './operation-doc';

const project = envelope('project', ref('Project'));

/** Health, workspace, projects, the admin API, the edge ask and this document. */
export const PLATFORM_OPERATIONS: Record<string, OperationDoc> = {
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
  'GET /v1/projects': { summary: 'List projects', response: page('projects', ref('Project')) },
  'POST /v1/projects': { summary: 'Create a project', response: project },
  'GET /v1/projects/{id}': { summary: 'Get a project', response: project },
  'PATCH /v1/projects/{id}': { summary: 'Change a project', response: project },
  'DELETE /v1/projects/{id}': {
    summary: 'Delete a project (refused while domains use it)',
    response: ref('Deleted'),
    errors: ['conflict'],
  },
  'POST /admin/workspaces': { summary: 'Create a workspace and its first API key', response: ref('IssuedApiKey') },
  'GET /admin/workspaces': {
    summary: 'List workspaces, newest first (the first 1000)',
    response: obj({ workspaces: arrayOf(ref('Workspace')) }),
  },
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
  'POST /admin/console-users': {
    summary:
      'Create a console user: an operator, or a member or viewer of one workspace (what `npm run admin -- create-user` calls)',
    response: obj({ user: freeForm }),
    // An unknown workspaceId; an e-mail address that already has a user.
    errors: ['not_found', 'conflict'],
  },
  'POST /admin/console-users/password': {
    summary:
      "Set a console user's password, or generate a one-time one (answered once); every session of the user ends (`npm run admin -- set-password` / `reset-password`)",
    response: obj({ user: freeForm, oneTimePassword: str('Only when no password was sent'), sessionsEnded: int() }, [
      'oneTimePassword',
    ]),
    errors: ['not_found'],
  },
  'GET /admin/cluster': {
    summary:
      'Actor cluster: nodes, shards owned, resident actors; every process that answered (api, node, edge); nodes that left within the hour, when and why (left, killed, silent)',
    response: obj({
      shardCount: int(),
      unowned: int(),
      nodes: arrayOf(freeForm),
      processes: arrayOf(freeForm),
      departed: arrayOf(freeForm),
    }),
  },
  'GET /edge/ask': {
    summary: 'Caddy on-demand TLS: 200 only for a live domain with correct DNS',
    response: obj({ allowed: { type: 'boolean', enum: [true] }, hostname: str() }),
    errors: ['not_found'],
  },
  'GET /openapi.json': { summary: 'This document', response: freeForm },
  'GET /asyncapi.json': { summary: 'AsyncAPI 2.6 document of the NATS JetStream event subjects', response: freeForm },
  'GET /docs': { summary: 'API reference page', response: str(), contentType: 'text/html' },
  'GET /docs/{asset}': {
    summary: 'Assets of the reference page',
    response: str(),
    contentType: ['text/css', 'application/javascript'],
    headers: { 'cache-control': 'CacheControl' },
  },
};
