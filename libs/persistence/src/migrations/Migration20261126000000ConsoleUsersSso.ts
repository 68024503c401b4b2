import { Migration } from '@mikro-orm/migrations';

/**
 * Console users an operator can disable, with their last sign-in; API keys with when they were
 * last used (to the minute, written by the background recheck of keys in use, never per request).
 */
export class Migration20261126000000ConsoleUsersSso extends Migration {
  override async up(): Promise<void> {
    this.addSql('alter table console_users add column disabled_at timestamptz null');
    this.addSql('alter table console_users add column last_sign_in_at timestamptz null');
    this.addSql('alter table api_keys add column last_used_at timestamptz null');
  }

  override async down(): Promise<void> {
    this.addSql('alter table api_keys drop column last_used_at');
    this.addSql('alter table console_users drop column last_sign_in_at');
    this.addSql('alter table console_users drop column disabled_at');
  }
}
