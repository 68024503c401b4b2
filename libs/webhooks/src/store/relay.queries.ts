import type { SqlExecutor } from '@app/persistence';
import { EventRow } from '../model/envelope';
import { withDates } from './row-dates';
import { newDeliveryId } from './webhook-ids';

export interface NewDelivery {
  eventId: string;
  endpointId: string;
  workspaceId: string;
  type: string;
}

/** A cheap look (no transaction, no locks) before an idle relay opens a transaction. */
export async function anyUnrelayed(db: SqlExecutor): Promise<boolean> {
  return (await db.query('select 1 from outbox_events where relayed_at is null limit 1')).length > 0;
}

/** The oldest unrelayed events, locked for this transaction; other relays skip them. */
export async function claimUnrelayed(tx: SqlExecutor, limit: number): Promise<EventRow[]> {
  const rows = await tx.query<EventRow>(
    `select id, workspace_id as "workspaceId", type, data, created_at as "createdAt" from outbox_events
     where relayed_at is null order by created_at limit ? for update skip locked`,
    [limit],
  );
  return rows.map((row) => withDates(row, ['createdAt']));
}

export function enabledEndpoints(
  tx: SqlExecutor,
  workspaceIds: string[],
): Promise<{ id: string; workspaceId: string; events: string[] }[]> {
  return tx.query(
    `select id, workspace_id as "workspaceId", events from webhook_endpoints
     where workspace_id = any(?::text[]) and enabled`,
    [workspaceIds],
  );
}

/** One delivery per (event, endpoint), due at `now`; a second relay of the same event adds nothing. */
export async function insertDeliveries(tx: SqlExecutor, rows: NewDelivery[], now: Date): Promise<void> {
  if (!rows.length) return;
  await tx.query(
    `insert into webhook_deliveries (id, workspace_id, event_id, endpoint_id, event_type, next_attempt_at)
     select d.*, ?::timestamptz from unnest(?::text[], ?::text[], ?::text[], ?::text[], ?::text[]) as d
     on conflict (event_id, endpoint_id) do nothing`,
    [
      now.toISOString(),
      rows.map(() => newDeliveryId()),
      rows.map((r) => r.workspaceId),
      rows.map((r) => r.eventId),
      rows.map((r) => r.endpointId),
      rows.map((r) => r.type),
    ],
  );
}

export async function markRelayed(tx: SqlExecutor, ids: string[]): Promise<void> {
  await tx.query('update outbox_events set relayed_at = now() where id = any(?::text[])', [ids]);
}
