import { Migration } from '@mikro-orm/migrations';

export class Migration20261121040000Webhooks extends Migration {
  override async up(): Promise<void> {
    // The signing secret is sealed with ENCRYPTION_KEY (SecretBox): the service must sign with it.
    this.addSql(`create table webhook_endpoints (
      id text primary key,
      workspace_id text not null references workspaces(id) on delete cascade,
      url text not null,
      events text[] not null default '{}',
      enabled boolean not null default true,
      secret_sealed text not null,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now()
    )`);
    this.addSql('create index webhook_endpoints_workspace_idx on webhook_endpoints (workspace_id, created_at, id)');
    // One row per (event, endpoint). A worker claims a row by moving next_attempt_at to the end of
    // its lease (locked_until) under a fresh claim_id; a dead worker's rows are simply due again.
    this.addSql(`create table webhook_deliveries (
      id text primary key,
      workspace_id text not null,
      event_id text not null references outbox_events(id) on delete cascade,
      endpoint_id text not null references webhook_endpoints(id) on delete cascade,
      event_type text not null,
      status text not null default 'pending' check (status in ('pending', 'delivered', 'dead_lettered')),
      attempts integer not null default 0,
      next_attempt_at timestamptz not null,
      first_attempt_at timestamptz null,
      last_attempt_at timestamptz null,
      last_status_code integer null,
      last_error text null,
      last_duration_ms integer null,
      delivered_at timestamptz null,
      dead_lettered_at timestamptz null,
      claim_id text null,
      locked_by text null,
      locked_until timestamptz null,
      created_at timestamptz not null default now(),
      unique (event_id, endpoint_id)
    )`);
    this.addSql(
      "create index webhook_deliveries_due_idx on webhook_deliveries (next_attempt_at) where status = 'pending'",
    );
    this.addSql('create index webhook_deliveries_endpoint_idx on webhook_deliveries (endpoint_id, created_at, id)');
    this.addSql('create index outbox_events_workspace_type_idx on outbox_events (workspace_id, type, created_at, id)');
  }

  override async down(): Promise<void> {
    this.addSql('drop index outbox_events_workspace_type_idx');
    this.addSql('drop table webhook_deliveries');
    this.addSql('drop table webhook_endpoints');
  }
}
