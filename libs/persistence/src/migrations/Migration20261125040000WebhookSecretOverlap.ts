import { Migration } from '@mikro-orm/migrations';

/** Secret rotation without a gap: the replaced secret, sealed like the current one, and when it stops. */
export class Migration20261125040000WebhookSecretOverlap extends Migration {
  override async up(): Promise<void> {
    this.addSql('alter table webhook_endpoints add column previous_secret_sealed text null');
    this.addSql('alter table webhook_endpoints add column previous_secret_expires_at timestamptz null');
  }

  override async down(): Promise<void> {
    this.addSql('alter table webhook_endpoints drop column previous_secret_expires_at');
    this.addSql('alter table webhook_endpoints drop column previous_secret_sealed');
  }
}
