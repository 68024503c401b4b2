import { MikroSqlExecutor } from '@app/persistence';
import { Injectable } from '@nestjs/common';
import { afterCursor, microsKey, page } from '@app/http';
import { notFound } from '@app/kernel';
import { DeliveryRecord, DeliveryStatus } from '../model/delivery.view';
import { withDates } from './row-dates';
import { newDeliveryId } from './webhook-ids';

const COLUMNS = `id, event_id as "eventId", event_type as "eventType", endpoint_id as "endpointId", status, attempts,
  next_attempt_at as "nextAttemptAt", first_attempt_at as "firstAttemptAt", last_attempt_at as "lastAttemptAt",
  last_status_code as "lastStatusCode", last_error as "lastError", last_duration_ms as "lastDurationMs",
  delivered_at as "deliveredAt", dead_lettered_at as "deadLetteredAt", claim_id is not null as "inFlight",
  created_at as "createdAt", ${microsKey('created_at')} as "createdAtKey"`;

const DATES = [
  'nextAttemptAt',
  'firstAttemptAt',
  'lastAttemptAt',
  'deliveredAt',
  'deadLetteredAt',
  'createdAt',
] as const satisfies readonly (keyof DeliveryRecord)[];
const record = (row: DeliveryRecord) => withDates(row, DATES);

/** One attempt of a delivery, as the worker recorded it (the newest ATTEMPTS_KEPT of each). */
export interface DeliveryAttemptRecord {
  attemptedAt: Date;
  statusCode: number | null;
  error: string | null;
  durationMs: number | null;
  /** The delivery's status after this attempt. */
  outcome: DeliveryStatus;
}

export interface DeliveryListQuery {
  status?: DeliveryStatus;
  eventId?: string;
  cursor?: string;
  limit: number;
}

/** Deliveries as the API sees them: listing per endpoint, and replays. */
@Injectable()
export class DeliveryRepository {
  constructor(private readonly db: MikroSqlExecutor) {}

  async list(workspaceId: string, endpointId: string, q: DeliveryListQuery) {
    const where = ['workspace_id = ?', 'endpoint_id = ?'];
    const params: unknown[] = [workspaceId, endpointId];
    if (q.status) {
      where.push('status = ?');
      params.push(q.status);
    }
    if (q.eventId) {
      where.push('event_id = ?');
      params.push(q.eventId);
    }
    if (q.cursor) {
      const after = afterCursor(q.cursor);
      where.push(after.sql);
      params.push(...after.params);
    }
    const rows = await this.db.query<DeliveryRecord>(
      `select ${COLUMNS} from webhook_deliveries where ${where.join(' and ')}
       order by created_at desc, id desc limit ?`,
      [...params, q.limit + 1],
    );
    return page(rows.map(record), q.limit);
  }

  async get(workspaceId: string, endpointId: string, id: string): Promise<DeliveryRecord> {
    const rows = await this.db.query<DeliveryRecord>(
      `select ${COLUMNS} from webhook_deliveries where id = ? and workspace_id = ? and endpoint_id = ?`,
      [id, workspaceId, endpointId],
    );
    if (!rows[0]) throw notFound('Delivery');
    return record(rows[0]);
  }

  /** The delivery's recorded attempts, newest first. */
  async attempts(deliveryId: string): Promise<DeliveryAttemptRecord[]> {
    const rows = await this.db.query<DeliveryAttemptRecord>(
      `select attempted_at as "attemptedAt", status_code as "statusCode", error, duration_ms as "durationMs", outcome
       from webhook_delivery_attempts where delivery_id = ? order by id desc`,
      [deliveryId],
    );
    return rows.map((r) => ({ ...r, attemptedAt: new Date(r.attemptedAt) }));
  }

  /**
   * Makes the event due now for each endpoint: a new delivery, or the existing one reset (whatever
   * its status) with a fresh 7-day window. An attempt in flight finishes but its result is ignored.
   */
  async replay(
    event: { id: string; workspaceId: string; type: string },
    endpointIds: string[],
    now: Date,
  ): Promise<DeliveryRecord[]> {
    if (!endpointIds.length) return [];
    const rows = await this.db.query<DeliveryRecord>(
      `insert into webhook_deliveries (id, workspace_id, event_id, endpoint_id, event_type, next_attempt_at)
       select unnest(?::text[]), ?, ?, unnest(?::text[]), ?, ?::timestamptz
       on conflict (event_id, endpoint_id) do update set status = 'pending', attempts = 0,
         next_attempt_at = excluded.next_attempt_at, first_attempt_at = null, delivered_at = null,
         dead_lettered_at = null, claim_id = null, locked_by = null, locked_until = null
       returning ${COLUMNS}`,
      [endpointIds.map(() => newDeliveryId()), event.workspaceId, event.id, endpointIds, event.type, now.toISOString()],
    );
    return rows.map(record);
  }
}
