import { afterCursor, microsKey, page } from '@app/http';
import { DomainError, notFound } from '@app/kernel';
import { MikroSqlExecutor } from '@app/persistence';
import { Injectable } from '@nestjs/common';
import { PurchaseRecord } from '../model/purchase.record';

export interface PurchaseListQuery {
  hostname?: string;
  status?: string[];
  customerReference?: string;
  createdAfter?: string;
  createdBefore?: string;
  cursor?: string;
  limit: number;
}

const DAY_MS = 86_400_000;

/** A date bound as an instant: a bare date covers its whole UTC day, inclusively at both ends. */
function bound(value: string, field: string, end: boolean): string {
  const bare = /^\d{4}-\d{2}-\d{2}$/.test(value);
  const at = Date.parse(bare ? `${value}T00:00:00Z` : value);
  if (Number.isNaN(at)) throw new DomainError('bad_request', `${field} is not a valid date`, { field });
  return new Date(bare && end ? at + DAY_MS - 1 : at).toISOString();
}

/** Reads of purchases; every query is scoped by the workspace it is given. */
@Injectable()
export class PurchaseRepository {
  constructor(private readonly db: MikroSqlExecutor) {}

  async get(workspaceId: string, id: string): Promise<PurchaseRecord> {
    const rows = await this.db.query<{ state: PurchaseRecord }>(
      'select state from purchases where id = ? and workspace_id = ?',
      [id, workspaceId],
    );
    if (!rows[0]) throw notFound('Purchase');
    return rows[0].state;
  }

  async list(
    workspaceId: string,
    query: PurchaseListQuery,
  ): Promise<{ records: PurchaseRecord[]; nextCursor: string | null }> {
    const where = ['workspace_id = ?'];
    const params: unknown[] = [workspaceId];
    const add = (sql: string, value: unknown) => {
      where.push(sql);
      params.push(value);
    };
    if (query.hostname !== undefined) add('hostname = ?', query.hostname);
    if (query.status?.length) add('status = any(?::text[])', query.status);
    if (query.customerReference !== undefined) add('customer_reference = ?', query.customerReference);
    if (query.createdAfter) add('created_at >= ?::timestamptz', bound(query.createdAfter, 'createdAfter', false));
    if (query.createdBefore) add('created_at <= ?::timestamptz', bound(query.createdBefore, 'createdBefore', true));
    if (query.cursor) {
      const after = afterCursor(query.cursor);
      where.push(after.sql);
      params.push(...after.params);
    }
    const rows = await this.db.query<{ id: string; createdAtKey: string; state: PurchaseRecord }>(
      `select id, ${microsKey('created_at')} as "createdAtKey", state from purchases
       where ${where.join(' and ')} order by created_at desc, id desc limit ?`,
      [...params, query.limit + 1],
    );
    const result = page(rows, query.limit);
    return { records: result.rows.map((r) => r.state), nextCursor: result.nextCursor };
  }
}
