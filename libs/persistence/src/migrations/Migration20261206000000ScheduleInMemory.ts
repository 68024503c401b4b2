import { Migration } from '@mikro-orm/migrations';

/**
 * The monitor's schedule moves into the memory of the node that owns each shard (`ProbeSchedule`):
 * `domain_schedule`, one row per domain written at its creation and at every probe, goes. What a
 * node persists instead is one watermark per shard, `shard_leases.monitored_until` (every probe time
 * of the shard before it has been probed), from which the next owner resumes. A node that takes a
 * shard reads the shard's domains through `domains_shard_idx`.
 *
 * A domain's back-off after its creation is derived again from `created_at`; one restarted by a
 * check lives in memory and, after a shard move, ends at the domain's next slot.
 */
export class Migration20261206000000ScheduleInMemory extends Migration {
  override async up(): Promise<void> {
    this.addSql('alter table shard_leases add column monitored_until timestamptz');
    this.addSql('create index domains_shard_idx on domains (shard) where deleted_at is null');
    this.addSql('drop trigger domains_schedule_delete on domains');
    this.addSql('drop function domain_schedule_of_deleted_domain()');
    this.addSql('drop table domain_schedule');
  }

  override async down(): Promise<void> {
    this.addSql(`create table domain_schedule (
      id text primary key,
      shard integer not null,
      probe_phase double precision not null,
      next_probe_at timestamptz not null,
      backoff_step smallint
    )`);
    this.addSql(`insert into domain_schedule (id, shard, probe_phase, next_probe_at)
      select id, shard, (state->>'probePhase')::float8, now() from domains where deleted_at is null`);
    this.addSql('create index domain_schedule_next_probe_idx on domain_schedule (next_probe_at)');
    this.addSql(`create function domain_schedule_of_deleted_domain() returns trigger language plpgsql as $$
      begin
        delete from domain_schedule where id = old.id;
        return null;
      end $$`);
    this.addSql(`create trigger domains_schedule_delete after delete on domains for each row
      execute function domain_schedule_of_deleted_domain()`);
    this.addSql('drop index domains_shard_idx');
    this.addSql('alter table shard_leases drop column monitored_until');
  }
}
