import { Migration } from '@mikro-orm/migrations';

export class Migration20261121020000Domains extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create table domains (
      id text primary key,
      workspace_id text not null references workspaces(id) on delete cascade,
      hostname text not null,
      shard integer not null,
      status text not null,
      monitor_status text not null,
      state jsonb not null,
      version bigint not null,
      probe_phase double precision not null,
      next_probe_at timestamptz not null,
      created_at timestamptz not null,
      updated_at timestamptz not null,
      deleted_at timestamptz null
    )`);
    // A hostname belongs to one live domain across all workspaces; deleting frees it.
    this.addSql('create unique index domains_live_hostname_idx on domains (hostname) where deleted_at is null');
    this.addSql(
      'create index domains_workspace_list_idx on domains (workspace_id, created_at desc, id desc) where deleted_at is null',
    );
    this.addSql('create index domains_due_idx on domains (shard, next_probe_at) where deleted_at is null');
  }

  override async down(): Promise<void> {
    this.addSql('drop table domains');
  }
}
