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

/** An unrelayed event, with the enabled endpoints of its workspace (the candidates for its deliveries). */
export interface ClaimedEvent extends EventRow {
  endpoints: { id: string; events: string[] }[];
}

/**
 * The oldest unrelayed events, locked for this transaction (other relays skip them) and marked
 * relayed, each with its workspace's enabled endpoints: one statement where a pass used to need
 * three (claim, endpoints, mark). The mark only counts if the transaction commits, which the relay
 * does after JetStream has acknowledged every event.
 */
export async function claimUnrelayed(tx: SqlExecutor, limit: number): Promise<ClaimedEvent[]> {
  const rows = await tx.query<ClaimedEvent>(
    `with claimed as (
       select id from outbox_events where relayed_at is null order by created_at limit ? for update skip locked
     ), marked as (
       update outbox_events o set relayed_at = now() from claimed where o.id = claimed.id
       returning o.id, o.workspace_id, o.type, o.data, o.created_at
     )
     select m.id, m.workspace_id as "workspaceId", m.type, m.data, m.created_at as "createdAt",
       coalesce((select json_agg(json_build_object('id', e.id, 'events', e.events))
         from webhook_endpoints e where e.workspace_id = m.workspace_id and e.enabled), '[]') as endpoints
     from marked m order by m.created_at`,
    [limit],
  );
  return rows.map((row) => withDates(row, ['createdAt']));
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
