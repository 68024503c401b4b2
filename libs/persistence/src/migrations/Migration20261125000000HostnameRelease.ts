import { Migration } from '@mikro-orm/migrations';

export class Migration20261125000000HostnameRelease extends Migration {
  override async up(): Promise<void> {
    // A domain whose hostname another workspace claimed (TXT proof) stays visible to its owner as
    // failed, but no longer holds the hostname: the unique index skips released rows.
    this.addSql('alter table domains add column released_at timestamptz null');
    this.addSql('drop index domains_live_hostname_idx');
    this.addSql(
      'create unique index domains_live_hostname_idx on domains (hostname) where deleted_at is null and released_at is null',
    );
  }

  override async down(): Promise<void> {
    this.addSql('drop index domains_live_hostname_idx');
    this.addSql('create unique index domains_live_hostname_idx on domains (hostname) where deleted_at is null');
    this.addSql('alter table domains drop column released_at');
  }
}
