import { AdminUseCases, CreateWorkspaceDto } from '@app/admin';
import { statusOf } from '@app/http';
import { DomainError } from '@app/kernel';
import { Body, Get, Param, Post, Query } from '@nestjs/common';
import { ConsoleActor } from './access';
import { ConsoleController } from './console-controller';
import { Actor, FormBody, PageWithStatus, Redirect, ShowOnce, ShownOnce, field } from './console-request';
import { validated } from './form-validation';
import { formProblems, orFormProblem } from './forms/form-problems';
import type { Flash } from './console-flashes.store';
import { ConsoleWorkspaces } from './console-workspaces.service';
import { keysPage, revokeKeyPage } from './views/keys.page';
import { overviewPage, workspacesPage } from './views/workspaces.page';
import { ConsoleAccess, Workspace } from './console-access';
import type { WorkspaceContext } from './views/layout';
import { AuditNote, AuditNoteFn, Audited } from './console-audited';
import { WorkspaceCards } from './billing/workspace-cards.service';
import { cardOnFileText } from './billing/card.page';

const NOTICES: Record<string, string> = {
  'workspace-created': 'Workspace created.',
  'key-revoked': 'The key is revoked: calls with it are refused from now on.',
  'card-saved': 'Card saved: purchases, renewals and new domains are charged to it from now on.',
};

/** A new key waits for the keys page in a one-time flash, never in a URL. */
const keyOnce = (ws: string, id: string, key: string, name: string | null) =>
  new ShowOnce({ kind: 'api_key', workspaceId: ws, id, key, name }, `/console/w/${ws}/keys`);

/** Workspaces and their API keys; writes go through the same AdminUseCases as /admin. */
@ConsoleController()
export class ConsoleWorkspacesController {
  constructor(
    private readonly workspaces: ConsoleWorkspaces,
    private readonly admin: AdminUseCases,
    private readonly cards: WorkspaceCards,
  ) {}

  @ConsoleAccess('signed-in')
  @Get('workspaces')
  async list(@Actor() actor: ConsoleActor, @Query('notice') notice?: string) {
    return workspacesPage(actor, await this.workspaces.visible(actor), notice ? NOTICES[notice] : undefined);
  }

  @Audited('workspace.created')
  @ConsoleAccess('operator')
  @Post('workspaces')
  async create(@Actor() actor: ConsoleActor, @AuditNote() note: AuditNoteFn, @Body() body: FormBody) {
    const typed = { name: field(body, 'name') ?? '', paymentMethod: field(body, 'paymentMethod') ?? '' };
    // The rules of POST /admin/workspaces (its DTO): a name of 1-200 characters, a payment method id.
    const issued = await orFormProblem(
      validated(CreateWorkspaceDto, {
        name: typed.name.trim(),
        paymentMethod: typed.paymentMethod.trim() || undefined,
      }).then((dto) => this.admin.createWorkspace(dto.name, dto.paymentMethod)),
    );
    if (issued instanceof DomainError) {
      // What was typed comes back, each problem under its field.
      const form = { ...typed, problems: formProblems(issued, ['name', 'paymentMethod']) };
      const page = workspacesPage(actor, await this.workspaces.visible(actor), undefined, form);
      return new PageWithStatus(statusOf(issued.code), page);
    }
    const name = issued.workspace.name;
    note({
      workspaceId: issued.workspace.id,
      target: issued.workspace.id,
      detail: { name, firstKey: issued.apiKeyId },
    });
    return keyOnce(issued.workspace.id, issued.apiKeyId, issued.apiKey, null);
  }

  @ConsoleAccess('read')
  @Get('w/:ws')
  async overview(
    @Actor() actor: ConsoleActor,
    @Workspace() w: WorkspaceContext,
    @Param('ws') ws: string,
    @Query('notice') notice?: string,
  ) {
    const { workspace } = await this.admin.getWorkspace(ws);
    const card = cardOnFileText(await this.cards.onFile(ws));
    const data = { workspace, card, canWrite: w.canWrite, ...(await this.workspaces.counts(ws)) };
    return overviewPage(actor, data, notice ? NOTICES[notice] : undefined);
  }

  @ConsoleAccess('read')
  @Get('w/:ws/keys')
  async keys(
    @Actor() actor: ConsoleActor,
    @Workspace() w: WorkspaceContext,
    @Param('ws') ws: string,
    @Query('notice') notice?: string,
    @ShownOnce() flash?: Flash,
  ) {
    const created = flash?.kind === 'api_key' && flash.workspaceId === ws ? flash : undefined;
    const { apiKeys } = await this.admin.getWorkspace(ws);
    return keysPage(actor, w, apiKeys, created, notice ? NOTICES[notice] : undefined);
  }

  /** Post, redirect, show once (keyOnce): a reload of the page shows the list, not a second key. */
  @Audited('api_key.created')
  @ConsoleAccess('write')
  @Post('w/:ws/keys')
  async createKey(
    @Actor() actor: ConsoleActor,
    @AuditNote() note: AuditNoteFn,
    @Param('ws') ws: string,
    @Body() body: FormBody,
  ) {
    const name = field(body, 'name')?.trim().slice(0, 100) || undefined;
    const issued = await this.admin.issueKey(ws, name);
    note({ target: issued.apiKeyId, detail: name ? { name } : {} });
    return keyOnce(ws, issued.apiKeyId, issued.apiKey, name ?? null);
  }

  @ConsoleAccess('write')
  @Get('w/:ws/keys/:keyId/revoke')
  async confirmRevoke(
    @Actor() actor: ConsoleActor,
    @Workspace() w: WorkspaceContext,
    @Param('ws') ws: string,
    @Param('keyId') keyId: string,
  ) {
    const { apiKeys } = await this.admin.getWorkspace(ws);
    const key = apiKeys.find((k) => k.id === keyId && !k.revokedAt);
    if (!key) throw new DomainError('not_found', 'API key was not found (or it is revoked already)');
    return revokeKeyPage(actor, w, key, apiKeys.filter((k) => !k.revokedAt).length);
  }

  @Audited('api_key.revoked')
  @ConsoleAccess('write')
  @Post('w/:ws/keys/:keyId/revoke')
  async revokeKey(
    @Actor() actor: ConsoleActor,
    @AuditNote() note: AuditNoteFn,
    @Param('ws') ws: string,
    @Param('keyId') keyId: string,
  ) {
    const { apiKeys } = await this.admin.getWorkspace(ws);
    if (!apiKeys.some((k) => k.id === keyId)) throw new DomainError('not_found', 'API key was not found');
    await this.admin.revokeKey(keyId);
    note({ target: keyId });
    return new Redirect(`/console/w/${ws}/keys?notice=key-revoked`);
  }
}
