import { notFound } from '@app/kernel';
import { MikroSqlExecutor } from '@app/persistence';
import { Injectable } from '@nestjs/common';
import { afterCursor, microsKey, page } from '@app/http';
import { EndpointRecord } from './endpoint.view';
import { withDates } from './row-dates';

const COLUMNS = `id, workspace_id as "workspaceId", url, events, enabled, secret_sealed as "secretSealed",
  previous_secret_expires_at as "previousSecretExpiresAt", created_at as "createdAt", updated_at as "updatedAt", ${microsKey('created_at')} as "createdAtKey"`;

const record = (row: EndpointRecord) => withDates(row, ['createdAt', 'updatedAt', 'previousSecretExpiresAt']);

export interface EndpointChanges {
  url?: string;
  events?: string[];
  enabled?: boolean;
  secretSealed?: string;
}

/** Webhook endpoints; every query is scoped by the workspace it is given. */
@Injectable()
export class EndpointRepository {
  constructor(private readonly db: MikroSqlExecutor) {}

  async insert(
    e: Omit<EndpointRecord, 'createdAt' | 'updatedAt' | 'createdAtKey' | 'previousSecretExpiresAt'>,
  ): Promise<EndpointRecord> {
    const rows = await this.db.query<EndpointRecord>(
      `insert into webhook_endpoints (id, workspace_id, url, events, enabled, secret_sealed)
       values (?, ?, ?, ?::text[], ?, ?) returning ${COLUMNS}`,
      [e.id, e.workspaceId, e.url, e.events, e.enabled, e.secretSealed],
    );
    return record(rows[0]);
  }

  async get(workspaceId: string, id: string): Promise<EndpointRecord> {
    const rows = await this.db.query<EndpointRecord>(
      `select ${COLUMNS} from webhook_endpoints where id = ? and workspace_id = ?`,
      [id, workspaceId],
    );
    if (!rows[0]) throw notFound('Webhook endpoint');
    return record(rows[0]);
  }

  async list(workspaceId: string, limit: number, cursor?: string) {
    const params: unknown[] = [workspaceId];
    let after = '';
    if (cursor) {
      const position = afterCursor(cursor);
      after = `and ${position.sql}`;
      params.push(...position.params);
    }
    const rows = await this.db.query<EndpointRecord>(
      `select ${COLUMNS} from webhook_endpoints where workspace_id = ? ${after}
       order by created_at desc, id desc limit ?`,
      [...params, limit + 1],
    );
    return page(rows.map(record), limit);
  }

  /** The enabled endpoints of a workspace and their filters. */
  async enabled(workspaceId: string): Promise<{ id: string; events: string[] }[]> {
    return this.db.query('select id, events from webhook_endpoints where workspace_id = ? and enabled', [workspaceId]);
  }

  async update(workspaceId: string, id: string, changes: EndpointChanges): Promise<EndpointRecord> {
    const rows = await this.db.query<EndpointRecord>(
      `update webhook_endpoints set url = coalesce(?, url), events = coalesce(?::text[], events),
         enabled = coalesce(?, enabled), secret_sealed = coalesce(?, secret_sealed), updated_at = now()
       where id = ? and workspace_id = ? returning ${COLUMNS}`,
      [
        changes.url ?? null,
        changes.events ?? null,
        changes.enabled ?? null,
        changes.secretSealed ?? null,
        id,
        workspaceId,
      ],
    );
    if (!rows[0]) throw notFound('Webhook endpoint');
    return record(rows[0]);
  }

  /**
   * A new sealed secret; the replaced one keeps signing until `previousUntil` (null: it stops at
   * once). One statement, so of two rotations at once the second replaces the first's secret.
   */
  async rotateSecret(
    workspaceId: string,
    id: string,
    secretSealed: string,
    previousUntil: Date | null,
  ): Promise<EndpointRecord> {
    const until = previousUntil?.toISOString() ?? null;
    const rows = await this.db.query<EndpointRecord>(
      `update webhook_endpoints set
         previous_secret_sealed = case when ?::timestamptz is null then null else secret_sealed end,
         previous_secret_expires_at = ?::timestamptz, secret_sealed = ?, updated_at = now()
       where id = ? and workspace_id = ? returning ${COLUMNS}`,
      [until, until, secretSealed, id, workspaceId],
    );
    if (!rows[0]) throw notFound('Webhook endpoint');
    return record(rows[0]);
  }

  /** Deletes the endpoint and, with it, its deliveries. */
  async remove(workspaceId: string, id: string): Promise<void> {
    const rows = await this.db.query('delete from webhook_endpoints where id = ? and workspace_id = ? returning id', [
      id,
      workspaceId,
    ]);
    if (!rows.length) throw notFound('Webhook endpoint');
  }
}
