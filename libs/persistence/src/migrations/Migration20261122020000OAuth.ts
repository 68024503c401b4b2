import { Migration } from '@mikro-orm/migrations';

export class Migration20261122020000OAuth extends Migration {
  override async up(): Promise<void> {
    // `id` is the OAuth client_id; the secret is kept only as a SHA-256 hash.
    this.addSql(`create table oauth_clients (
      id text primary key,
      workspace_id text not null references workspaces(id) on delete cascade,
      name text not null,
      secret_hash text not null,
      scopes text[] not null,
      created_at timestamptz not null default now(),
      revoked_at timestamptz null
    )`);
    this.addSql('create index oauth_clients_workspace_idx on oauth_clients (workspace_id, created_at)');
    this.addSql(`create table oauth_tokens (
      id text primary key,
      token_hash text not null unique,
      client_id text not null references oauth_clients(id) on delete cascade,
      workspace_id text not null references workspaces(id) on delete cascade,
      scopes text[] not null,
      created_at timestamptz not null,
      expires_at timestamptz not null,
      revoked_at timestamptz null
    )`);
    this.addSql('create index oauth_tokens_client_idx on oauth_tokens (client_id)');
    this.addSql('create index oauth_tokens_expiry_idx on oauth_tokens (expires_at)');
  }

  override async down(): Promise<void> {
    this.addSql('drop table oauth_tokens');
    this.addSql('drop table oauth_clients');
  }
}
