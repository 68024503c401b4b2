import { Migration } from '@mikro-orm/migrations';

/**
 * A domain deleted while its DNS still points at the edge keeps its hostname from other workspaces
 * until `guarded_until` (the takeover guard). A create looks for a guard by hostname: the partial
 * index holds only deleted rows that have one.
 */
export class Migration20261203000000TakeoverGuard extends Migration {
  override async up(): Promise<void> {
    this.addSql('alter table domains add column guarded_until timestamptz null');
    this.addSql('create index domains_guarded_hostname_idx on domains (hostname) where guarded_until is not null');
  }

  override async down(): Promise<void> {
    this.addSql('drop index domains_guarded_hostname_idx');
    this.addSql('alter table domains drop column guarded_until');
  }
}
