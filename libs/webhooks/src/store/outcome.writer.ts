import { Logger } from '@nestjs/common';
import type { SqlExecutor } from '@app/persistence';
import { AttemptOutcome } from '../model/delivery-outcome';

const MAX_BATCH = 1_000;
const RETRY_MS = 500;
const MAX_TRIES = 5;

/**
 * Group commit of attempt results: outcomes that arrive while a write runs go together in the next
 * one. Each update is conditional on the claim id, so the result of an attempt whose claim was
 * given away (lease expired, replay) changes nothing. A result that cannot be written is resent
 * after its lease runs out: at-least-once.
 */
export class OutcomeWriter {
  private readonly logger = new Logger(OutcomeWriter.name);
  private queue: { outcome: AttemptOutcome; tries: number }[] = [];
  private flushing?: Promise<void>;

  constructor(private readonly db: SqlExecutor) {}

  submit(outcome: AttemptOutcome): void {
    this.queue.push({ outcome, tries: 0 });
    if (!this.flushing) this.flushing = this.drain();
  }

  /** Resolves when everything submitted so far is written (or given up). */
  async flushed(): Promise<void> {
    while (this.flushing) await this.flushing;
  }

  private async drain(): Promise<void> {
    try {
      while (this.queue.length) {
        const batch = this.queue.splice(0, MAX_BATCH);
        try {
          await write(
            this.db,
            batch.map((b) => b.outcome),
          );
        } catch (err) {
          const again = batch.filter((b) => ++b.tries < MAX_TRIES);
          const dropped = batch.length - again.length;
          this.logger.warn({ err, retrying: again.length, dropped }, 'Writing delivery outcomes failed');
          this.queue.unshift(...again);
          await new Promise((resolve) => setTimeout(resolve, RETRY_MS));
        }
      }
    } finally {
      // Synchronously after the last check of the queue: a submit from now on starts a new drain.
      this.flushing = undefined;
    }
  }
}

/** Attempts kept per delivery in `webhook_delivery_attempts` (the console's history); older ones are trimmed. */
export const ATTEMPTS_KEPT = 20;

/**
 * One statement per batch: the deliveries' new state, each attempt appended to its history, and the
 * history trimmed to the newest ATTEMPTS_KEPT. The trim sees the table before this statement's
 * insert (one snapshot), so it keeps ATTEMPTS_KEPT - 1 older rows beside the new one.
 */
async function write(db: SqlExecutor, outcomes: AttemptOutcome[]): Promise<void> {
  const iso = (at: Date | null) => (at ? at.toISOString() : null);
  await db.query(
    `with v as (
       select * from unnest(?::text[], ?::text[], ?::text[], ?::timestamptz[], ?::int[], ?::text[], ?::int[],
         ?::timestamptz[], ?::int[]) as v(id, claim_id, status, at, code, error, ms, next_at, counted)
     ), written as (
       update webhook_deliveries d set status = v.status, attempts = d.attempts + v.counted,
         next_attempt_at = coalesce(v.next_at, d.next_attempt_at),
         first_attempt_at = coalesce(d.first_attempt_at, case when v.counted = 1 then v.at end),
         last_attempt_at = case when v.counted = 1 then v.at else d.last_attempt_at end,
         last_status_code = v.code, last_error = v.error, last_duration_ms = v.ms,
         delivered_at = case when v.status = 'delivered' then v.at end,
         dead_lettered_at = case when v.status = 'dead_lettered' then v.at end,
         claim_id = null, locked_by = null, locked_until = null
       from v
       where d.id = v.id and d.claim_id = v.claim_id
       returning d.id, v.at, v.code, v.error, v.ms, v.status
     ), trimmed as (
       delete from webhook_delivery_attempts a using written w
       where a.delivery_id = w.id and a.id <= (
         select b.id from webhook_delivery_attempts b where b.delivery_id = w.id
         order by b.id desc offset ${ATTEMPTS_KEPT - 1} limit 1)
     )
     insert into webhook_delivery_attempts (delivery_id, attempted_at, status_code, error, duration_ms, outcome)
     select id, at, code, error, ms, status from written`,
    [
      outcomes.map((o) => o.id),
      outcomes.map((o) => o.claimId),
      outcomes.map((o) => o.status),
      outcomes.map((o) => o.attemptedAt.toISOString()),
      outcomes.map((o) => o.statusCode),
      outcomes.map((o) => o.error),
      outcomes.map((o) => o.durationMs),
      outcomes.map((o) => iso(o.nextAttemptAt)),
      outcomes.map((o) => o.counted),
    ],
  );
}
