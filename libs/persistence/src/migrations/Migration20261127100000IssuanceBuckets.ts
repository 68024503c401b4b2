import { Migration } from '@mikro-orm/migrations';

/**
 * Token buckets of the CA's limits (new orders per account, certificates per registered domain,
 * failed validations per hostname), shared by every node: one row per bucket, its tokens as of
 * `updated_at` (database clock); the refill is computed on read, so nothing sweeps the table.
 */
export class Migration20261127100000IssuanceBuckets extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create table issuance_buckets (
      key text primary key,
      tokens double precision not null,
      updated_at timestamptz not null
    )`);
  }

  override async down(): Promise<void> {
    this.addSql('drop table issuance_buckets');
  }
}
