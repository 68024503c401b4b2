import { notFound } from '@app/kernel';
import { MikroSqlExecutor, newId } from '@app/persistence';
import { Injectable } from '@nestjs/common';
import { afterCursor, microsKey, page } from '@app/http';
import { EventEnvelope, EventRow, buildEnvelope, unixSeconds } from '../model/envelope';
import { withDates } from './row-dates';

export interface EventListQuery {
  types?: string[];
  createdAfter?: string;
  createdBefore?: string;
  cursor?: string;
  limit: number;
}

const COLUMNS = `id, workspace_id as "workspaceId", type, data, created_at as "createdAt",
  ${microsKey('created_at')} as "createdAtKey"`;
const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/;
const UTC_DAY = (date: string) => `((${date})::timestamp at time zone 'UTC')`;

/** As read through the API, `timestamp` is the event's creation time in unix seconds. */
const view = (row: EventRow): EventEnvelope => buildEnvelope(row, unixSeconds(row.createdAt));

/** Events of the outbox, newest first; every query is scoped by the workspace it is given. */
@Injectable()
export class EventRepository {
  constructor(private readonly db: MikroSqlExecutor) {}

  async get(workspaceId: string, id: string): Promise<EventEnvelope> {
    return view(await this.row(workspaceId, id));
  }

  async row(workspaceId: string, id: string): Promise<EventRow> {
    const rows = await this.db.query<EventRow>(
      `select ${COLUMNS} from outbox_events where id = ? and workspace_id = ?`,
      [id, workspaceId],
    );
    if (!rows[0]) throw notFound('Event');
    return withDates(rows[0], ['createdAt']);
  }

  async list(workspaceId: string, q: EventListQuery): Promise<{ events: EventEnvelope[]; nextCursor: string | null }> {
    const where = ['workspace_id = ?'];
    const params: unknown[] = [workspaceId];
    if (q.types?.length) {
      where.push('type = any(?::text[])');
      params.push(q.types);
    }
    // Both ends are inclusive; a date alone means the whole of that day in UTC.
    if (q.createdAfter) {
      where.push(
        DATE_ONLY.test(q.createdAfter) ? `created_at >= ${UTC_DAY('?::date')}` : 'created_at >= ?::timestamptz',
      );
      params.push(q.createdAfter);
    }
    if (q.createdBefore) {
      where.push(
        DATE_ONLY.test(q.createdBefore) ? `created_at < ${UTC_DAY('?::date + 1')}` : 'created_at <= ?::timestamptz',
      );
      params.push(q.createdBefore);
    }
    if (q.cursor) {
      const after = afterCursor(q.cursor);
      where.push(after.sql);
      params.push(...after.params);
    }
    const rows = await this.db.query<EventRow & { createdAtKey: string }>(
      `select ${COLUMNS} from outbox_events where ${where.join(' and ')} order by created_at desc, id desc limit ?`,
      [...params, q.limit + 1],
    );
    const result = page(
      rows.map((r) => withDates(r, ['createdAt'])),
      q.limit,
    );
    return { events: result.rows.map(view), nextCursor: result.nextCursor };
  }

  /** Queues an event in the outbox like any other (the relay delivers it); answers its id and time. */
  async queue(
    workspaceId: string,
    type: string,
    data: Record<string, unknown>,
    aggregate: { kind: string; id: string },
  ): Promise<{ id: string; createdAt: string }> {
    const rows = await this.db.query<{ id: string; createdAt: Date | string }>(
      `insert into outbox_events (id, workspace_id, type, data, aggregate_kind, aggregate_id)
       values (?, ?, ?, ?::jsonb, ?, ?) returning id, created_at as "createdAt"`,
      [newId('evt'), workspaceId, type, JSON.stringify(data), aggregate.kind, aggregate.id],
    );
    return { id: rows[0].id, createdAt: new Date(rows[0].createdAt).toISOString() };
  }
}
