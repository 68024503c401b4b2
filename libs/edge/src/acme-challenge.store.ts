import { MikroSqlExecutor, type SqlExecutor } from '@app/persistence';
import { Inject, Injectable } from '@nestjs/common';

export const ACME_CHALLENGE_PREFIX = '/.well-known/acme-challenge/';
const TOKEN = /^[A-Za-z0-9_-]{1,256}$/;

/** HTTP-01 key authorizations from `acme_challenges`, written by whichever node runs the order. */
@Injectable()
export class AcmeChallengeStore {
  constructor(@Inject(MikroSqlExecutor) private readonly db: SqlExecutor) {}

  /** The key authorization of an unexpired challenge; never cached, the row may have just been written. */
  async keyAuthorization(token: string): Promise<string | undefined> {
    if (!TOKEN.test(token)) return undefined;
    const [row] = await this.db.query<{ key_authorization: string }>(
      'select key_authorization from acme_challenges where token = ? and expires_at > now()',
      [token],
    );
    return row?.key_authorization;
  }
}
