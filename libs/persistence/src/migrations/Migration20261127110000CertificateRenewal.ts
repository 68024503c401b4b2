import { Migration } from '@mikro-orm/migrations';

/**
 * What renewal needs of each certificate: which of our CAs issued it (`replaces` may only name a
 * certificate of the same CA), its RFC 9773 CertID, the renewal time chosen and when to ask the
 * CA's renewal information again (an index serves the nodes' ARI sweep).
 */
export class Migration20261127110000CertificateRenewal extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table certificates
      add column issuer_name text,
      add column cert_id text,
      add column renew_at timestamptz,
      add column ari_check_at timestamptz`);
    this.addSql(
      'create index certificates_ari_check_idx on certificates (ari_check_at) where ari_check_at is not null',
    );
  }

  override async down(): Promise<void> {
    this.addSql('drop index certificates_ari_check_idx');
    this.addSql(`alter table certificates drop column issuer_name, drop column cert_id, drop column renew_at,
      drop column ari_check_at`);
  }
}
