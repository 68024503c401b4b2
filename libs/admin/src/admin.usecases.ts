import { EntityManager } from '@mikro-orm/postgresql';
import { ApiKeyService, ApiKeyView, toApiKeyView } from '@app/api-keys';
import { Infer, obj, ref, str } from '@app/kernel';
import { Workspace, WorkspaceRepository, WorkspaceView, toWorkspaceView, workspaceSchema } from '@app/workspaces';
import { Injectable } from '@nestjs/common';

/** A workspace created with its first key (`IssuedApiKey` in the API document). */
export const issuedKeySchema = obj({
  workspace: ref('Workspace', workspaceSchema),
  apiKey: str('`sk_live_...`, shown once'),
  apiKeyId: str(),
});
export type IssuedKey = Infer<typeof issuedKeySchema>;

const LIST_LIMIT = 1000;

/** What the operator's dashboard does: workspaces, their keys and saved cards. */
@Injectable()
export class AdminUseCases {
  constructor(
    private readonly em: EntityManager,
    private readonly workspaces: WorkspaceRepository,
    private readonly apiKeys: ApiKeyService,
  ) {}

  /** The workspace and its first key in one transaction: never a workspace nobody can use. */
  async createWorkspace(name: string, paymentMethod?: string): Promise<IssuedKey> {
    return this.em.transactional(async () => {
      const workspace = await this.workspaces.create(name, paymentMethod);
      const { apiKey, key } = await this.apiKeys.issue(workspace.id);
      return { workspace: toWorkspaceView(workspace), apiKey: key, apiKeyId: apiKey.id };
    });
  }

  /** Newest first; an operator's view, so the first thousand is plenty (no paging). */
  async listWorkspaces(): Promise<{ workspaces: WorkspaceView[] }> {
    const rows = await this.em.find(Workspace, {}, { orderBy: { createdAt: 'desc' }, limit: LIST_LIMIT });
    return { workspaces: rows.map(toWorkspaceView) };
  }

  async getWorkspace(id: string): Promise<{ workspace: WorkspaceView; apiKeys: ApiKeyView[] }> {
    const workspace = await this.workspaces.get(id);
    const keys = await this.apiKeys.listFor(id);
    return { workspace: toWorkspaceView(workspace), apiKeys: keys.map(toApiKeyView) };
  }

  async issueKey(workspaceId: string, name?: string): Promise<IssuedKey> {
    const workspace = await this.workspaces.get(workspaceId);
    const { apiKey, key } = await this.apiKeys.issue(workspace.id, name);
    return { workspace: toWorkspaceView(workspace), apiKey: key, apiKeyId: apiKey.id };
  }

  async revokeKey(keyId: string): Promise<ApiKeyView> {
    return toApiKeyView(await this.apiKeys.revoke(keyId));
  }

  async setPaymentMethod(workspaceId: string, paymentMethod: string | null): Promise<WorkspaceView> {
    return toWorkspaceView(await this.workspaces.setPaymentMethod(workspaceId, paymentMethod));
  }
}
