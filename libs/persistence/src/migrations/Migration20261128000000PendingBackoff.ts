import { Migration } from '@mikro-orm/migrations';

/**
 * The pending back-off: a domain not serving HTTPS yet is probed 10 s, 20 s, 40 s, ... apart after its
 * creation and after each check, until it is verified or the waits reach the monitor interval.
 * `backoff_step` is the position in those waits (null: on its phase slot, as every existing domain).
 * Nullable without a default: adding it rewrites nothing, and a null costs no byte in the row (its
 * null bitmap fits in the header's alignment padding), so the rows of the phase schedule stay as narrow.
 */
export class Migration20261128000000PendingBackoff extends Migration {
  override async up(): Promise<void> {
    this.addSql('alter table domain_schedule add column backoff_step smallint');
  }

  override async down(): Promise<void> {
    this.addSql('alter table domain_schedule drop column backoff_step');
  }
}
