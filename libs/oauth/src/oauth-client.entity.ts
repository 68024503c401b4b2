import { ArrayType, Entity, PrimaryKey, Property } from '@mikro-orm/core';

/** A workspace's OAuth client (`oauth_clients`); the secret is kept as a hash only. */
@Entity({ tableName: 'oauth_clients' })
export class OAuthClient {
  @PrimaryKey({ type: 'text' })
  id: string;

  @Property({ type: 'text' })
  workspaceId: string;

  @Property({ type: 'text' })
  name: string;

  @Property({ type: 'text' })
  secretHash: string;

  @Property({ type: ArrayType, columnType: 'text[]' })
  scopes: string[];

  @Property({ type: 'datetime' })
  createdAt: Date = new Date();

  @Property({ type: 'datetime', nullable: true })
  revokedAt: Date | null = null;

  constructor(c: Pick<OAuthClient, 'id' | 'workspaceId' | 'name' | 'secretHash' | 'scopes'>) {
    this.id = c.id;
    this.workspaceId = c.workspaceId;
    this.name = c.name;
    this.secretHash = c.secretHash;
    this.scopes = c.scopes;
  }
}
