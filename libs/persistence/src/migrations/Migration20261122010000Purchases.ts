import { Migration } from '@mikro-orm/migrations';

export class Migration20261122010000Purchases extends Migration {
  override async up(): Promise<void> {
    // The purchase actor's snapshot (`state`) plus the columns lists, the sweeper and renewals query.
    this.addSql(`create table purchases (
      id text primary key,
      workspace_id text not null references workspaces(id) on delete cascade,
      hostname text not null,
      status text not null check (status in ('pending', 'completed', 'failed', 'refunded')),
      step text not null,
      customer_reference text null,
      shard integer not null,
      state jsonb not null,
      version bigint not null,
      auto_renew boolean not null default false,
      expires_at timestamptz null,
      retry_at timestamptz null,
      created_at timestamptz not null,
      updated_at timestamptz not null
    )`);
    // One live purchase per hostname: two simultaneous purchases give one row, so one charge.
    this.addSql(
      "create unique index purchases_live_hostname_idx on purchases (hostname) where status in ('pending', 'completed')",
    );
    this.addSql('create index purchases_workspace_list_idx on purchases (workspace_id, created_at desc, id desc)');
    this.addSql("create index purchases_pending_idx on purchases (shard, updated_at) where status = 'pending'");
    this.addSql(
      "create index purchases_renewal_idx on purchases (expires_at) where status = 'completed' and auto_renew",
    );
  }

  override async down(): Promise<void> {
    this.addSql('drop table purchases');
  }
}
