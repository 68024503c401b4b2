import { Migration } from '@mikro-orm/migrations';

export class Migration20261121050000Limits extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create table rate_limit_counters (
      bucket text not null,
      window_start timestamptz not null,
      count integer not null,
      expires_at timestamptz not null,
      primary key (bucket, window_start)
    )`);
    this.addSql('create index rate_limit_counters_expiry_idx on rate_limit_counters (expires_at)');
    this.addSql(`create table idempotency_records (
      workspace_id text not null,
      method text not null,
      path text not null,
      key text not null,
      fingerprint text not null,
      status text not null,
      response_status integer null,
      response_body jsonb null,
      response_headers jsonb null,
      created_at timestamptz not null default now(),
      expires_at timestamptz not null,
      primary key (workspace_id, method, path, key)
    )`);
  }

  override async down(): Promise<void> {
    this.addSql('drop table idempotency_records');
    this.addSql('drop table rate_limit_counters');
  }
}
