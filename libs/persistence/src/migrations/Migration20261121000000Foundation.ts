import { Migration } from '@mikro-orm/migrations';

export class Migration20261121000000Foundation extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create table workspaces (
      id text primary key,
      name text not null,
      payment_method_id text null,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now()
    )`);
    this.addSql(`create table api_keys (
      id text primary key,
      workspace_id text not null references workspaces(id) on delete cascade,
      key_hash text not null unique,
      key_hint text not null,
      created_at timestamptz not null default now(),
      revoked_at timestamptz null
    )`);
    this.addSql('create index api_keys_workspace_idx on api_keys (workspace_id)');
  }

  override async down(): Promise<void> {
    this.addSql('drop table api_keys');
    this.addSql('drop table workspaces');
  }
}
