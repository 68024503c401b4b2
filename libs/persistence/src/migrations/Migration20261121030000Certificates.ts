import { Migration } from '@mikro-orm/migrations';

export class Migration20261121030000Certificates extends Migration {
  override async up(): Promise<void> {
    // One current certificate per domain; the private key is sealed with ENCRYPTION_KEY (SecretBox).
    this.addSql(`create table certificates (
      domain_id text primary key references domains(id) on delete cascade,
      hostname text not null,
      cert_pem text not null,
      key_sealed text not null,
      not_before timestamptz not null,
      not_after timestamptz not null,
      issuer text null,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now()
    )`);
    this.addSql('create index certificates_hostname_idx on certificates (hostname)');
    this.addSql('create index certificates_not_after_idx on certificates (not_after)');
    // HTTP-01 challenges of orders in flight, answered by any edge replica.
    this.addSql(`create table acme_challenges (
      token text primary key,
      key_authorization text not null,
      hostname text not null,
      expires_at timestamptz not null
    )`);
    this.addSql(`create table acme_accounts (
      directory_url text primary key,
      key_sealed text not null,
      account_url text null,
      created_at timestamptz not null default now()
    )`);
  }

  override async down(): Promise<void> {
    this.addSql('drop table acme_accounts');
    this.addSql('drop table acme_challenges');
    this.addSql('drop table certificates');
  }
}
