import { MikroSqlExecutor } from '@app/persistence';
import { Injectable } from '@nestjs/common';

/** An unanswered challenge is worthless after this; the edge ignores expired rows. */
const CHALLENGE_TTL_MINUTES = 30;

/** HTTP-01 key authorizations in `acme_challenges`, where every edge replica answers them on port 80. */
@Injectable()
export class AcmeChallengeRepository {
  constructor(private readonly db: MikroSqlExecutor) {}

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
