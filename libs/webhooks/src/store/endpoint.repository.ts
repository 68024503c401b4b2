import { afterCursor, page } from '@app/http';
import { notFound } from '@app/kernel';
import { LockMode } from '@mikro-orm/core';
import { EntityManager } from '@mikro-orm/postgresql';
import { Injectable } from '@nestjs/common';
import { EndpointRecord } from '../model/endpoint.view';
import { WebhookEndpoint } from './webhook-endpoint.entity';

export interface EndpointChanges {
  url?: string;
  events?: string[];
  enabled?: boolean;
}

/** Webhook endpoints (a MikroORM entity); every query is scoped by the workspace it is given. */
@Injectable()
export class EndpointRepository {
  constructor(private readonly em: EntityManager) {}

  async insert(
    e: Pick<EndpointRecord, 'id' | 'workspaceId' | 'url' | 'events' | 'enabled' | 'secretSealed'>,
  ): Promise<WebhookEndpoint> {
    const endpoint = new WebhookEndpoint(e);
    await this.em.persistAndFlush(endpoint);
    return endpoint;
  }

  async get(workspaceId: string, id: string): Promise<WebhookEndpoint> {
    const endpoint = await this.em.findOne(WebhookEndpoint, { id, workspaceId });
    if (!endpoint) throw notFound('Webhook endpoint');
    return endpoint;
  }

  /** Newest first, keyset-paged on (created_at, id) at the database's microsecond precision. */
  async list(workspaceId: string, limit: number, cursor?: string) {
    const qb = this.em.createQueryBuilder(WebhookEndpoint).select('*').where({ workspaceId });
    if (cursor) {
      const position = afterCursor(cursor);
      qb.andWhere(position.sql, position.params);
    }
    const rows = await qb
      .orderBy({ createdAt: 'desc', id: 'desc' })
      .limit(limit + 1)
      .getResultList();
    return page(rows, limit);
  }

  /** The enabled endpoints of a workspace and their filters. */
  async enabled(workspaceId: string): Promise<{ id: string; events: string[] }[]> {
    const endpoints = await this.em.find(WebhookEndpoint, { workspaceId, enabled: true });
    return endpoints.map(({ id, events }) => ({ id, events }));
  }

  /** Fields left undefined keep their value; updatedAt moves on every call. */
  async update(workspaceId: string, id: string, changes: EndpointChanges): Promise<WebhookEndpoint> {
    const endpoint = await this.get(workspaceId, id);
    if (changes.url !== undefined) endpoint.url = changes.url;
    if (changes.events !== undefined) endpoint.events = changes.events;
    if (changes.enabled !== undefined) endpoint.enabled = changes.enabled;
    endpoint.updatedAt = new Date();
    await this.em.flush();
    return endpoint;
  }

  /**
   * A new sealed secret; the replaced one keeps signing until `previousUntil` (null: it stops at
   * once). The row is locked while it changes, so of two rotations at once the second replaces the
   * first's secret.
   */
  async rotateSecret(
    workspaceId: string,
    id: string,
    secretSealed: string,
    previousUntil: Date | null,
  ): Promise<WebhookEndpoint> {
    return this.em.transactional(async (em) => {
      const endpoint = await em.findOne(
        WebhookEndpoint,
        { id, workspaceId },
        { lockMode: LockMode.PESSIMISTIC_WRITE, refresh: true },
      );
      if (!endpoint) throw notFound('Webhook endpoint');
      endpoint.previousSecretSealed = previousUntil ? endpoint.secretSealed : null;
      endpoint.previousSecretExpiresAt = previousUntil;
      endpoint.secretSealed = secretSealed;
      endpoint.updatedAt = new Date();
      return endpoint;
    });
  }

  /** Deletes the endpoint and, with it, its deliveries. */
  async remove(workspaceId: string, id: string): Promise<void> {
    if (!(await this.em.nativeDelete(WebhookEndpoint, { id, workspaceId }))) throw notFound('Webhook endpoint');
  }
}
