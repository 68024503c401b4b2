import { Bus } from '@app/bus';
import { DNS_CHALLENGE_CHANGED_SUBJECT, DnsChallengeChange } from '@app/kernel';
import { MikroSqlExecutor } from '@app/persistence';
import { Injectable } from '@nestjs/common';

/** An unanswered challenge is worthless after this; the edge ignores expired rows. */
const CHALLENGE_TTL_MINUTES = 30;

/**
 * HTTP-01 key authorizations in `acme_challenges`, where every edge replica answers them on port 80;
 * DNS-01 TXT values in `acme_dns_challenges`, which every edge's DNS listener answers in the challenge
 * zone (told at once over the bus, so the CA's query does not wait for its next reload).
 */
@Injectable()
export class AcmeChallengeRepository {
  constructor(
    private readonly db: MikroSqlExecutor,
    private readonly bus: Bus,
  ) {}

  /** `name`: `<label>.<ACME_CHALLENGE_ZONE>`, where the customer's `_acme-challenge` CNAME points. */
  async publishDns(token: string, name: string, value: string): Promise<void> {
    await this.db.query(
      `insert into acme_dns_challenges (token, name, value, expires_at)
       values (?, ?, ?, now() + ? * interval '1 minute') on conflict (token) do nothing`,
      [token, name, value, CHALLENGE_TTL_MINUTES],
    );
    this.bus.publish(DNS_CHALLENGE_CHANGED_SUBJECT, { name } satisfies DnsChallengeChange);
  }

  async withdrawDns(token: string, name: string): Promise<void> {
    await this.db.query('delete from acme_dns_challenges where token = ?', [token]);
    this.bus.publish(DNS_CHALLENGE_CHANGED_SUBJECT, { name } satisfies DnsChallengeChange);
  }

  /** Expiry on the database clock, which the edge compares against; a token already there stays. */
  async publish(token: string, keyAuthorization: string, hostname: string): Promise<void> {
    await this.db.query(
      `insert into acme_challenges (token, key_authorization, hostname, expires_at)
       values (?, ?, ?, now() + ? * interval '1 minute') on conflict (token) do nothing`,
      [token, keyAuthorization, hostname, CHALLENGE_TTL_MINUTES],
    );
  }

  async withdraw(token: string): Promise<void> {
    await this.db.query('delete from acme_challenges where token = ?', [token]);
  }
}
