import type { SqlExecutor } from '@app/persistence';
import { EventRow } from '../model/envelope';
import { withDates } from './row-dates';

/** A due delivery as a worker claims it: everything an attempt needs. */
export interface ClaimedDelivery {
  id: string;
  claimId: string;
  eventId: string;
  endpointId: string;
  workspaceId: string;
  eventType: string;
  /** Attempts recorded before this one. */
  attempts: number;
  /** Null before the first attempt is recorded. */
  firstAttemptAt: Date | null;
  url: string;
  secretSealed: string;
  /** The secret a rotation replaced and the end of its overlap (see secret-rotation.ts). */
  previousSecretSealed: string | null;
  previousSecretExpiresAt: Date | null;
  enabled: boolean;
}

export interface ClaimRequest {
  now: Date;
  leaseUntil: Date;
  owner: string;
  claimId: string;
  limit: number;
  perEndpoint: number;
  /** Endpoints already at their concurrency cap on this node. */
  exclude: string[];
}

/**
 * Claims due deliveries: the oldest due rows (`for update skip locked`, so nodes never take the same
 * row), at most `perEndpoint` per endpoint, moved to the end of a lease under a fresh claim id. A
 * dead node's claims are due again when their lease runs out; a live node renews its leases.
 */
export async function claimDue(db: SqlExecutor, r: ClaimRequest): Promise<ClaimedDelivery[]> {
  const rows = await db.query<ClaimedDelivery>(
    `with due as (
       select id, endpoint_id, next_attempt_at from webhook_deliveries
       where status = 'pending' and next_attempt_at <= ?::timestamptz and endpoint_id <> all(?::text[])
       order by next_attempt_at limit ? for update skip locked
     ), picked as (
       select id from (
         select id, next_attempt_at, row_number() over (partition by endpoint_id order by next_attempt_at, id) as rn
         from due) ranked
       where rn <= ? order by next_attempt_at limit ?
     )
     update webhook_deliveries d set next_attempt_at = ?::timestamptz, locked_until = ?::timestamptz,
       locked_by = ?, claim_id = ?
     from picked, webhook_endpoints e
     where d.id = picked.id and e.id = d.endpoint_id
     returning d.id, d.claim_id as "claimId", d.event_id as "eventId", d.endpoint_id as "endpointId",
       d.workspace_id as "workspaceId", d.event_type as "eventType", d.attempts,
       d.first_attempt_at as "firstAttemptAt", e.url, e.secret_sealed as "secretSealed",
       e.previous_secret_sealed as "previousSecretSealed", e.previous_secret_expires_at as "previousSecretExpiresAt",
       e.enabled`,
    [
      r.now.toISOString(),
      r.exclude,
      Math.min(r.limit * 4, 4_000),
      r.perEndpoint,
      r.limit,
      r.leaseUntil.toISOString(),
      r.leaseUntil.toISOString(),
      r.owner,
      r.claimId,
    ],
  );
  return rows.map((row) => withDates(row, ['firstAttemptAt', 'previousSecretExpiresAt']));
}

/** When the next pending delivery comes due (a retry, a dead node's lease running out), if any. */
export async function nextPendingDue(db: SqlExecutor): Promise<Date | undefined> {
  const [row] = await db.query<{ at: Date | string | null }>(
    `select min(next_attempt_at) as at from webhook_deliveries where status = 'pending'`,
  );
  return row?.at ? new Date(row.at) : undefined;
}

/** Extends the leases of this node's claims still pending. */
export async function renewClaims(db: SqlExecutor, claimIds: string[], leaseUntil: Date): Promise<void> {
  if (!claimIds.length) return;
  await db.query(
    `update webhook_deliveries set next_attempt_at = ?::timestamptz, locked_until = ?::timestamptz
     where claim_id = any(?::text[]) and status = 'pending'`,
    [leaseUntil.toISOString(), leaseUntil.toISOString(), claimIds],
  );
}

/** Gives claims back (shutdown): due at once for any node; a late result of ours is then ignored. */
export async function releaseClaims(db: SqlExecutor, ids: string[], owner: string, now: Date): Promise<void> {
  if (!ids.length) return;
  await db.query(
    `update webhook_deliveries set next_attempt_at = ?::timestamptz, claim_id = null, locked_by = null,
       locked_until = null
     where id = any(?::text[]) and locked_by = ? and status = 'pending'`,
    [now.toISOString(), ids, owner],
  );
}

/** The events of claimed deliveries, by id (the worker caches them: events never change). */
export async function eventsByIds(db: SqlExecutor, ids: string[]): Promise<EventRow[]> {
  const rows = await db.query<EventRow>(
    `select id, workspace_id as "workspaceId", type, data, created_at as "createdAt" from outbox_events
     where id = any(?::text[])`,
    [ids],
  );
  return rows.map((row) => withDates(row, ['createdAt']));
}
