import { notFound } from '@app/kernel';
import { LockMode } from '@mikro-orm/core';
import { EntityManager } from '@mikro-orm/postgresql';
import { Injectable } from '@nestjs/common';
import { OAuthClient } from './oauth-client.entity';

export type OAuthClientRecord = OAuthClient;

/** OAuth clients (a MikroORM entity); the secret is kept as a hash only. */
@Injectable()
export class OAuthClientRepository {
  constructor(private readonly em: EntityManager) {}

  async insert(c: Pick<OAuthClient, 'id' | 'workspaceId' | 'name' | 'secretHash' | 'scopes'>): Promise<OAuthClient> {
    const client = new OAuthClient(c);
    await this.em.persistAndFlush(client);
    return client;
  }

  async find(id: string): Promise<OAuthClient | undefined> {
    return (await this.em.findOne(OAuthClient, { id })) ?? undefined;
  }

  async list(workspaceId: string): Promise<OAuthClient[]> {
    return this.em.find(OAuthClient, { workspaceId }, { orderBy: { createdAt: 'asc', id: 'asc' } });
  }

  /**
   * Revokes the client (a second revocation keeps the first time) and every token it holds, in one
   * transaction. Tokens are raw SQL on purpose (found by hash on every request, see raw-sql.ts).
   */
  async revoke(workspaceId: string, id: string): Promise<OAuthClient> {
    return this.em.transactional(async (em) => {
      const client = await em.findOne(
        OAuthClient,
        { id, workspaceId },
        { lockMode: LockMode.PESSIMISTIC_WRITE, refresh: true },
      );
      if (!client) throw notFound('OAuth client');
      client.revokedAt ??= new Date();
      await em
        .getConnection()
        .execute(
          'update oauth_tokens set revoked_at = now() where client_id = ? and revoked_at is null',
          [id],
          'run',
          em.getTransactionContext(),
        );
      return client;
    });
  }
}
