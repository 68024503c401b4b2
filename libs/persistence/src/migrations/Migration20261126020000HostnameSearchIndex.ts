import { Migration } from '@mikro-orm/migrations';

/**
 * The console's substring search gets its trigram index on `lower(hostname)` instead of on
 * `hostname`. pg_trgm serves equality too, and with an array or a parameter the planner took the
 * trigram index for `hostname = ...` over the unique btree: a batched hostname check cost 20 ms
 * instead of 0.1 ms. An index on the expression is only chosen by queries that name it (the search;
 * hostnames are stored lowercase, so the results are the same).
 */
export class Migration20261126020000HostnameSearchIndex extends Migration {
  override async up(): Promise<void> {
    this.addSql('drop index domains_hostname_trgm_idx');
    this.addSql(
      'create index domains_hostname_search_idx on domains using gin (lower(hostname) gin_trgm_ops) where deleted_at is null',
    );
  }

  override async down(): Promise<void> {
    this.addSql('drop index domains_hostname_search_idx');
    this.addSql(
      'create index domains_hostname_trgm_idx on domains using gin (hostname gin_trgm_ops) where deleted_at is null',
    );
  }
}
