import { Migration } from '@mikro-orm/migrations';

/** The web console: its users, their workspace roles, server-side sessions, sign-in throttling, the audit log. */
export class Migration20261125000000Console extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create table console_users (
      id text primary key,
      email text not null,
      name text null,
      password_hash text null,
      operator boolean not null default false,
      oidc_subject text null,
      created_at timestamptz not null default now()
    )`);
    this.addSql('create unique index console_users_email_idx on console_users (lower(email))');
    this.addSql(
      'create unique index console_users_oidc_idx on console_users (oidc_subject) where oidc_subject is not null',
    );
    this.addSql(`create table console_memberships (
      user_id text not null references console_users(id) on delete cascade,
      workspace_id text not null references workspaces(id) on delete cascade,
      role text not null check (role in ('member', 'viewer')),
      primary key (user_id, workspace_id)
    )`);
    // The cookie holds a random token; only its SHA-256 is stored, so a database read cannot sign anyone in.
    this.addSql(`create table console_sessions (
      token_hash text primary key,
      user_id text not null references console_users(id) on delete cascade,
      csrf_token text not null,
      created_at timestamptz not null default now(),
      last_seen_at timestamptz not null default now(),
      expires_at timestamptz not null
    )`);
    this.addSql('create index console_sessions_user_idx on console_sessions (user_id)');
    this.addSql(`create table console_signin_failures (
      key text primary key,
      failures integer not null,
      window_started_at timestamptz not null
    )`);
    this.addSql(`create table console_audit (
      id text primary key,
      workspace_id text null,
      actor text not null,
      action text not null,
      target text null,
      detail jsonb not null default '{}',
      created_at timestamptz not null default now()
    )`);
    this.addSql('create index console_audit_list_idx on console_audit (created_at desc, id desc)');
    this.addSql('create index console_audit_workspace_idx on console_audit (workspace_id, created_at desc, id desc)');
    // The console's domain filters stay index-backed at 100,000 domains a workspace.
    this.addSql(
      'create index domains_hostname_prefix_idx on domains (workspace_id, hostname text_pattern_ops) where deleted_at is null',
    );
    // A domain's timeline reads its events by aggregate.
    this.addSql('create index outbox_events_aggregate_idx on outbox_events (aggregate_id, created_at desc)');
    this.addSql(
      'create index domains_monitor_list_idx on domains (workspace_id, monitor_status, created_at desc, id desc) where deleted_at is null',
    );
  }

  override async down(): Promise<void> {
    this.addSql('drop index outbox_events_aggregate_idx');
    this.addSql('drop index domains_monitor_list_idx');
    this.addSql('drop index domains_hostname_prefix_idx');
    this.addSql('drop table console_audit');
    this.addSql('drop table console_signin_failures');
    this.addSql('drop table console_sessions');
    this.addSql('drop table console_memberships');
    this.addSql('drop table console_users');
  }
}
