import { SecretBox } from '@app/crypto';
import { MikroSqlExecutor } from '@app/persistence';
import { Injectable } from '@nestjs/common';
import * as acme from 'acme-client';

export interface AcmeAccount {
  key: string;
  /** Known once the account is registered; then no account call precedes an order. */
  url?: string;
}

/** One ACME account per directory, created once and kept (key sealed) so rate limits follow the account. */
@Injectable()
export class AcmeAccountRepository {
  constructor(
    private readonly db: MikroSqlExecutor,
    private readonly box: SecretBox,
  ) {}

  async account(directoryUrl: string): Promise<AcmeAccount> {
    const key = (await acme.crypto.createPrivateEcdsaKey('P-256')).toString();
    // Another node may win the race: whatever is stored is the account.
    await this.db.query('insert into acme_accounts (directory_url, key_sealed) values (?, ?) on conflict do nothing', [
      directoryUrl,
      this.box.seal(key),
    ]);
    const rows = await this.db.query<{ key_sealed: string; account_url: string | null }>(
      'select key_sealed, account_url from acme_accounts where directory_url = ?',
      [directoryUrl],
    );
    return { key: this.box.open(rows[0].key_sealed), url: rows[0].account_url ?? undefined };
  }

  async registered(directoryUrl: string, accountUrl: string): Promise<void> {
    await this.db.query('update acme_accounts set account_url = ? where directory_url = ?', [accountUrl, directoryUrl]);
  }
}
