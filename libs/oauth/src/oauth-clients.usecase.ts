import { arrayOf, dateTime, described, Infer, obj, oneOfValues, ref, str } from '@app/kernel';
import { ALL_SCOPES } from '@app/auth';
import { WorkspaceRepository } from '@app/workspaces';
import { Injectable } from '@nestjs/common';
import { OAuthClientRecord, OAuthClientRepository } from './oauth-client.repository';
import { generateClientId, generateClientSecret, hashSecret } from './oauth-credentials';
import { OAuthTokens } from './oauth-tokens.service';

/** OAuth scopes (`Scopes` in the API document). */
export const scopesSchema = described(arrayOf(oneOfValues(...ALL_SCOPES)), 'OAuth scopes');

export const oauthClientSchema = obj({
  clientId: str('`oac_...`'),
  workspaceId: str(),
  name: str(),
  scopes: ref('Scopes', scopesSchema),
  createdAt: dateTime(),
  revokedAt: dateTime(true),
});
export type OAuthClientView = Infer<typeof oauthClientSchema>;

const toView = (c: OAuthClientRecord): OAuthClientView => ({
  clientId: c.id,
  workspaceId: c.workspaceId,
  name: c.name,
  scopes: c.scopes,
  createdAt: c.createdAt.toISOString(),
  revokedAt: c.revokedAt?.toISOString() ?? null,
});

/** Registering, listing and revoking a workspace's OAuth clients (the admin API). */
@Injectable()
export class OAuthClients {
  constructor(
    private readonly workspaces: WorkspaceRepository,
    private readonly clients: OAuthClientRepository,
    private readonly tokens: OAuthTokens,
  ) {}

  /** The secret is in this answer only; it is stored as a hash. */
  async create(workspaceId: string, name: string, scopes: string[]) {
    await this.workspaces.get(workspaceId);
    const secret = generateClientSecret();
    const client = await this.clients.insert({
      id: generateClientId(),
      workspaceId,
      name: name.trim(),
      secretHash: hashSecret(secret),
      scopes: [...new Set(scopes)],
    });
    return { client: toView(client), client_id: client.id, client_secret: secret };
  }

  async list(workspaceId: string): Promise<{ clients: OAuthClientView[] }> {
    await this.workspaces.get(workspaceId);
    return { clients: (await this.clients.list(workspaceId)).map(toView) };
  }

  /** Revokes the client and all its tokens at once. */
  async revoke(workspaceId: string, clientId: string): Promise<{ client: OAuthClientView }> {
    const client = await this.clients.revoke(workspaceId, clientId);
    this.tokens.clientRevoked(client.id);
    return { client: toView(client) };
  }
}
