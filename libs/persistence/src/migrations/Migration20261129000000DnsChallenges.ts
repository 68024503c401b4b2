import { Migration } from '@mikro-orm/migrations';

/**
 * DNS-01 challenges of orders in flight: the TXT value (base64url SHA-256 of the key authorization)
 * at `<label>.<ACME_CHALLENGE_ZONE>`, the name a customer's `_acme-challenge` CNAME points at. Every
 * edge's DNS listener answers them. A wildcard and its base name share the challenge name, so one
 * name may hold two values at once: the token keys the row.
 */
export class Migration20261129000000DnsChallenges extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create table acme_dns_challenges (
      token text primary key,
      name text not null,
      value text not null,
      expires_at timestamptz not null
    )`);
    this.addSql('create index acme_dns_challenges_name_idx on acme_dns_challenges (name)');
  }

  override async down(): Promise<void> {
    this.addSql('drop table acme_dns_challenges');
  }
}
