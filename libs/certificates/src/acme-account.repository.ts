import { SecretBox } from '@app/crypto';
import { MikroSqlExecutor } from '@app/persistence';
import { Injectable } from '@nestjs/common';
import * as acme from 'acme-client';

/** One ACME account key per directory, created once and kept (sealed) so rate limits follow the account. */
@Injectable()
export class AcmeAccountRepository {
  constructor(
    private readonly db: MikroSqlExecutor,
    private readonly box: SecretBox,
  ) {}

  async accountKey(directoryUrl: string): Promise<string> {
    const existing = await this.db.query<{ key_sealed: string }>(
      'select key_sealed from acme_accounts where directory_url = ?',
      [directoryUrl],
    );
    if (existing[0]) return this.box.open(existing[0].key_sealed);
    const key = (await acme.crypto.createPrivateEcdsaKey('P-256')).toString();
    await this.db.query('insert into acme_accounts (directory_url, key_sealed) values (?, ?) on conflict do nothing', [
      directoryUrl,
      this.box.seal(key),
    ]);
    // Another node may have won the race: use whatever is stored.
    const stored = await this.db.query<{ key_sealed: string }>(
      'select key_sealed from acme_accounts where directory_url = ?',
      [directoryUrl],
    );
    return this.box.open(stored[0].key_sealed);
  }
}
