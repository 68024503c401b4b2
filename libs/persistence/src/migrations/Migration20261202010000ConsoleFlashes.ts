import { Migration } from '@mikro-orm/migrations';

/**
 * API keys get an optional name (a person tells them apart by it). `console_flashes` holds what a
 * create-once console page shows once (a new API key, a webhook secret, a one-time password):
 * sealed, tied to the session that made it (gone with it), deleted by the first view, so a reload
 * of that page neither creates a second object nor shows the secret again.
 */
export class Migration20261202010000ConsoleFlashes extends Migration {
  override async up(): Promise<void> {
    this.addSql('alter table api_keys add column name text null');
    this.addSql(`create table console_flashes (
      id text primary key,
      token_hash text not null references console_sessions (token_hash) on delete cascade,
      sealed text not null,
      created_at timestamptz not null default now()
    )`);
    this.addSql('create index console_flashes_token_idx on console_flashes (token_hash)');
  }

  override async down(): Promise<void> {
    this.addSql('drop table console_flashes');
    this.addSql('alter table api_keys drop column name');
  }
}
