import { Migration } from '@mikro-orm/migrations';

/**
 * The outbox relay keeps one watermark instead of marking every event it relays (an update per
 * event: a second row version and four index entries per creation). Each event carries the id of
 * the transaction that wrote it (`xid`, xid8) and an insertion number (`seq`); the relay hands on
 * events in (xid, seq) order, only those whose transaction id is below the oldest transaction still
 * running (`pg_snapshot_xmin`): every such transaction has ended, so no event can appear behind the
 * watermark later. This is how PgQ cuts its batches.
 *
 * Existing events: those already relayed sit at the watermark ('1'), those not yet relayed after
 * it ('2'); both below any real transaction id. Old nodes still running during a rollout lose
 * their relay (`relayed_at` is gone) and log it; the new nodes relay everything.
 */
export class Migration20261207000000OutboxRelayWatermark extends Migration {
  override async up(): Promise<void> {
    this.addSql('alter table outbox_events add column xid xid8');
    this.addSql('alter table outbox_events add column seq bigint generated always as identity');
    this.addSql(`update outbox_events set xid = case when relayed_at is null then '2' else '1' end::xid8`);
    this.addSql('alter table outbox_events alter column xid set default pg_current_xact_id()');
    this.addSql('alter table outbox_events alter column xid set not null');
    this.addSql('create index outbox_events_relay_order_idx on outbox_events (xid, seq)');
    this.addSql('drop index outbox_events_unrelayed_idx');
    this.addSql('alter table outbox_events drop column relayed_at');
    this.addSql(`create table outbox_relay_mark (
      singleton boolean primary key default true check (singleton),
      xid xid8 not null,
      seq bigint not null
    )`);
    this.addSql(`insert into outbox_relay_mark (xid, seq)
      values ('1', coalesce((select max(seq) from outbox_events where xid = '1'), 0))`);
  }

  override async down(): Promise<void> {
    this.addSql('alter table outbox_events add column relayed_at timestamptz null');
    this.addSql(`update outbox_events o set relayed_at = now() from outbox_relay_mark m
      where (o.xid, o.seq) <= (m.xid, m.seq)`);
    this.addSql('drop table outbox_relay_mark');
    this.addSql('drop index outbox_events_relay_order_idx');
    this.addSql('alter table outbox_events drop column seq');
    this.addSql('alter table outbox_events drop column xid');
    this.addSql('create index outbox_events_unrelayed_idx on outbox_events (created_at) where relayed_at is null');
  }
}
