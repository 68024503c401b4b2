import { Migration } from '@mikro-orm/migrations';

/**
 * Every webhook delivery attempt (the last 20 of each delivery, written by the delivery worker in the
 * statement that records the outcome), and a trigram index (and one by status) so the console's
 * hostname substring search and status filter stay index-backed at 100,000 domains a workspace. pg_trgm ships with PostgreSQL (contrib) and is
 * a trusted extension: a database owner may create it without superuser rights.
 */
export class Migration20261126010000ConsoleOps extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create table webhook_delivery_attempts (
      id bigint generated always as identity primary key,
      delivery_id text not null references webhook_deliveries(id) on delete cascade,
      attempted_at timestamptz not null,
      status_code integer null,
      error text null,
      duration_ms integer null,
      outcome text not null
    )`);
    this.addSql('create index webhook_delivery_attempts_delivery_idx on webhook_delivery_attempts (delivery_id, id)');
    this.addSql('create extension if not exists pg_trgm');
    this.addSql(
      'create index domains_hostname_trgm_idx on domains using gin (hostname gin_trgm_ops) where deleted_at is null',
    );
    // A status filter walks only the domains of that status (without it, a status no domain has walked all of them).
    this.addSql(
      'create index domains_status_list_idx on domains (workspace_id, status, created_at desc, id desc) where deleted_at is null',
    );
    // The prefix index served the console's former "starts with" filter only.
    this.addSql('drop index domains_hostname_prefix_idx');
  }

  override async down(): Promise<void> {
    this.addSql(
      'create index domains_hostname_prefix_idx on domains (workspace_id, hostname text_pattern_ops) where deleted_at is null',
    );
    this.addSql('drop index domains_status_list_idx');
    this.addSql('drop index domains_hostname_trgm_idx');
    this.addSql('drop table webhook_delivery_attempts');
  }
}
