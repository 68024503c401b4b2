import { Migration } from '@mikro-orm/migrations';

/**
 * The monitor's schedule moves out of `domains` into a narrow table of its own. A claim moves each
 * due domain to its next slot: in `domains` that rewrote the whole row (the JSON state) and added an
 * entry to each of its 9 indexes for every probe, because `next_probe_at` is indexed (no HOT
 * update). Here a claim rewrites ~60 bytes and two index entries, and the actors' snapshot writes
 * and the claims no longer lock the same rows. A deleted domain's schedule row goes with it.
 */
export class Migration20261127000000DomainSchedule extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create table domain_schedule (
      id text primary key references domains(id) on delete cascade,
      shard integer not null,
      probe_phase double precision not null,
      next_probe_at timestamptz not null
    )`);
    this.addSql(`insert into domain_schedule (id, shard, probe_phase, next_probe_at)
      select id, shard, probe_phase, next_probe_at from domains where deleted_at is null`);
    this.addSql('create index domain_schedule_next_probe_idx on domain_schedule (next_probe_at)');
    this.addSql('drop index domains_due_idx');
    this.addSql('drop index domains_next_probe_idx');
    this.addSql('alter table domains drop column next_probe_at, drop column probe_phase');
  }

  override async down(): Promise<void> {
    this.addSql('alter table domains add column probe_phase double precision, add column next_probe_at timestamptz');
    this.addSql(`update domains d set probe_phase = (d.state->>'probePhase')::float8,
      next_probe_at = coalesce((select s.next_probe_at from domain_schedule s where s.id = d.id), now())`);
    this.addSql('alter table domains alter column probe_phase set not null, alter column next_probe_at set not null');
    this.addSql('drop table domain_schedule');
    this.addSql('create index domains_due_idx on domains (shard, next_probe_at) where deleted_at is null');
    this.addSql('create index domains_next_probe_idx on domains (next_probe_at) where deleted_at is null');
  }
}
