import { Migration } from '@mikro-orm/migrations';

export class Migration20261121010000Actors extends Migration {
  override async up(): Promise<void> {
    // One row per shard, forever: claims and renewals are updates, never inserts.
    this.addSql(`create table shard_leases (
      shard integer primary key check (shard >= 0 and shard < 4096),
      owner text null,
      epoch bigint not null default 0,
      expires_at timestamptz not null default 'epoch'
    )`);
    this.addSql('insert into shard_leases (shard) select generate_series(0, 4095)');
    this.addSql(`create table actor_snapshots (
      kind text not null,
      id text not null,
      shard integer not null,
      version bigint not null,
      state jsonb not null,
      updated_at timestamptz not null default now(),
      primary key (kind, id)
    )`);
    this.addSql(`create table actor_commands (
      command_id text primary key,
      kind text not null,
      actor_id text not null,
      reply jsonb,
      created_at timestamptz not null default now()
    )`);
    this.addSql('create index actor_commands_created_idx on actor_commands (created_at)');
    this.addSql(`create table outbox_events (
      id text primary key,
      workspace_id text not null,
      type text not null,
      data jsonb not null,
      aggregate_kind text not null,
      aggregate_id text not null,
      created_at timestamptz not null default now(),
      relayed_at timestamptz null
    )`);
    this.addSql('create index outbox_events_unrelayed_idx on outbox_events (created_at) where relayed_at is null');
    this.addSql('create index outbox_events_workspace_idx on outbox_events (workspace_id, created_at, id)');
  }

  override async down(): Promise<void> {
    this.addSql('drop table outbox_events');
    this.addSql('drop table actor_commands');
    this.addSql('drop table actor_snapshots');
    this.addSql('drop table shard_leases');
  }
}
