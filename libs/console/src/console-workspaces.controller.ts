import { AdminUseCases } from '@app/admin';
import { DomainError } from '@app/kernel';
import { Body, Get, Param, Post, Query } from '@nestjs/common';
import { ConsoleActor, requireOperator } from './access';
import { ConsoleAudit } from './console-audit.store';
import { ConsoleController } from './console-controller';
import { Actor, FormBody, Redirect, field } from './console-request';
import { ConsoleWorkspaces } from './console-workspaces.service';
import { keysPage } from './views/keys.page';
import { overviewPage, workspacesPage } from './views/workspaces.page';

const NOTICES: Record<string, string> = {
  'workspace-created': 'Workspace created.',
  'key-revoked': 'The key is revoked: calls with it are refused from now on.',
};

/** Workspaces and their API keys; writes go through the same AdminUseCases as /admin. */
@ConsoleController()
export class ConsoleWorkspacesController {
  constructor(
    private readonly workspaces: ConsoleWorkspaces,
    private readonly admin: AdminUseCases,
    private readonly audit: ConsoleAudit,
  ) {}

  @Get('workspaces')
  async list(@Actor() actor: ConsoleActor, @Query('notice') notice?: string) {
    return workspacesPage(actor, await this.workspaces.visible(actor), notice ? NOTICES[notice] : undefined);
  }

  @Post('workspaces')
  async create(@Actor() actor: ConsoleActor, @Body() body: FormBody) {
    requireOperator(actor);
    const name = field(body, 'name')?.trim();
    if (!name || name.length > 200) {
      throw new DomainError('bad_request', 'A workspace needs a name of 1-200 characters', { field: 'name' });
    }
    const issued = await this.admin.createWorkspace(name, field(body, 'paymentMethod')?.trim() || undefined);
    await this.audit.record({
      workspaceId: issued.workspace.id,
      actor: actor.user.email,
      action: 'workspace.created',
      target: issued.workspace.id,
      detail: { name, firstKey: issued.apiKeyId },
    });
    const w = await this.workspaces.context(actor, issued.workspace.id);
    const { apiKeys } = await this.admin.getWorkspace(w.id);
    return keysPage(actor, w, apiKeys, { key: issued.apiKey, id: issued.apiKeyId });
  }

  @Get('w/:ws')
  async overview(@Actor() actor: ConsoleActor, @Param('ws') ws: string) {
    const w = await this.workspaces.context(actor, ws);
    const { workspace } = await this.admin.getWorkspace(ws);
    return overviewPage(actor, { workspace, canWrite: w.canWrite, ...(await this.workspaces.counts(ws)) });
  }

  @Get('w/:ws/keys')
  async keys(@Actor() actor: ConsoleActor, @Param('ws') ws: string, @Query('notice') notice?: string) {
    const w = await this.workspaces.context(actor, ws);
    const { apiKeys } = await this.admin.getWorkspace(ws);
    return keysPage(actor, w, apiKeys, undefined, notice ? NOTICES[notice] : undefined);
  }

  /** The key is in this answer only: a page, never a redirect with the key in a URL. */
  @Post('w/:ws/keys')
  async createKey(@Actor() actor: ConsoleActor, @Param('ws') ws: string) {
    const w = await this.workspaces.context(actor, ws, true);
    const issued = await this.admin.issueKey(ws);
    await this.audit.record({
      workspaceId: ws,
      actor: actor.user.email,
      action: 'api_key.created',
      target: issued.apiKeyId,
    });
    const { apiKeys } = await this.admin.getWorkspace(ws);
    return keysPage(actor, w, apiKeys, { key: issued.apiKey, id: issued.apiKeyId });
  }

  @Post('w/:ws/keys/:keyId/revoke')
  async revokeKey(@Actor() actor: ConsoleActor, @Param('ws') ws: string, @Param('keyId') keyId: string) {
    await this.workspaces.context(actor, ws, true);
    const { apiKeys } = await this.admin.getWorkspace(ws);
    if (!apiKeys.some((k) => k.id === keyId)) throw new DomainError('not_found', 'API key was not found');
    await this.admin.revokeKey(keyId);
    await this.audit.record({ workspaceId: ws, actor: actor.user.email, action: 'api_key.revoked', target: keyId });
    return new Redirect(`/console/w/${ws}/keys?notice=key-revoked`);
  }
}
