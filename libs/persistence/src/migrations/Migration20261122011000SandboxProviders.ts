import { Migration } from '@mikro-orm/migrations';

/**
 * State of the sandbox registrar and payment provider. It lives in PostgreSQL, not in memory, so a node
 * killed mid-purchase and the node that recovers it see the same registrations and charges.
 */
export class Migration20261122011000SandboxProviders extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create table sandbox_registrations (
      hostname text primary key,
      registrar_domain_id bigint generated always as identity unique,
      registrant jsonb not null,
      whois_privacy boolean not null,
      created_at timestamptz not null default now(),
      expires_at timestamptz not null,
      nameservers text[] not null default '{}',
      dns_records jsonb not null,
      updated_at timestamptz not null default now()
    )`);
    this.addSql(`create table sandbox_charges (
      id text primary key,
      idempotency_key text not null unique,
      payment_method text not null,
      amount_cents integer not null,
      currency text not null,
      description text not null,
      metadata jsonb not null,
      status text not null,
      decline_code text null,
      created_at timestamptz not null default now()
    )`);
    this.addSql(`create table sandbox_refunds (
      id text primary key,
      idempotency_key text not null unique,
      charge_id text not null unique references sandbox_charges (id),
      amount_cents integer not null,
      created_at timestamptz not null default now()
    )`);
  }

  override async down(): Promise<void> {
    this.addSql('drop table sandbox_refunds');
    this.addSql('drop table sandbox_charges');
    this.addSql('drop table sandbox_registrations');
  }
}
