import { microsKey } from '@app/http';
import { ArrayType, Entity, Formula, PrimaryKey, Property } from '@mikro-orm/core';
import { EndpointRecord } from '../model/endpoint.view';

/** A receiver of a workspace's events (`webhook_endpoints`); the secrets stay sealed. */
@Entity({ tableName: 'webhook_endpoints' })
export class WebhookEndpoint implements EndpointRecord {
  @PrimaryKey({ type: 'text' })
  id: string;

  @Property({ type: 'text' })
  workspaceId: string;

  @Property({ type: 'text' })
  url: string;

  @Property({ type: ArrayType, columnType: 'text[]' })
  events: string[];

  @Property({ type: 'boolean' })
  enabled: boolean;

  @Property({ type: 'text' })
  secretSealed: string;

  /** The secret the latest rotation replaced, signing beside the new one until its expiry. */
  @Property({ type: 'text', nullable: true })
  previousSecretSealed: string | null = null;

  @Property({ type: 'datetime', nullable: true })
  previousSecretExpiresAt: Date | null = null;

  @Property({ type: 'datetime' })
  createdAt: Date = new Date();

  /** Equal to createdAt at creation, as the database's now() made them before. */
  @Property({ type: 'datetime' })
  updatedAt: Date = this.createdAt;

  /** created_at as the database's microsecond text, the keyset cursor's position (selected with every load). */
  @Formula((table) => microsKey(`${table.alias}.created_at`), { type: 'text' })
  createdAtKey!: string;

  constructor(e: Pick<EndpointRecord, 'id' | 'workspaceId' | 'url' | 'events' | 'enabled' | 'secretSealed'>) {
    this.id = e.id;
    this.workspaceId = e.workspaceId;
    this.url = e.url;
    this.events = e.events;
    this.enabled = e.enabled;
    this.secretSealed = e.secretSealed;
  }
}
