import { SecretBox } from '@app/crypto';
import { EntityManager } from '@mikro-orm/postgresql';
import { Injectable } from '@nestjs/common';
import { AcmeAccountRecord } from './acme-account.entity';
import { AccountKey } from './acme/acme-jws';

export interface AcmeAccount {
  key: string;
  /** Known once the account is registered; then no account call precedes an order. */
  url?: string;
}

/**
 * One ACME account per directory, created once and kept (key sealed) so rate limits follow the
 * account. A MikroORM entity; orders run in the node outside any request, so each call forks.
 */
@Injectable()
export class AcmeAccountRepository {
  constructor(
    private readonly em: EntityManager,
    private readonly box: SecretBox,
  ) {}

  async account(directoryUrl: string): Promise<AcmeAccount> {
    const em = this.em.fork();
    const key = AccountKey.generate();
    // Another node may win the race: whatever is stored is the account.
    await em
      .createQueryBuilder(AcmeAccountRecord)
      .insert({ directoryUrl, keySealed: this.box.seal(key), createdAt: new Date() })
      .onConflict('directoryUrl')
      .ignore()
      .execute();
    const stored = await em.findOneOrFail(AcmeAccountRecord, { directoryUrl });
    return { key: this.box.open(stored.keySealed), url: stored.accountUrl ?? undefined };
  }

  /** The stored account, without creating one. */
  async find(directoryUrl: string): Promise<AcmeAccount | undefined> {
    const stored = await this.em.fork().findOne(AcmeAccountRecord, { directoryUrl });
    return stored ? { key: this.box.open(stored.keySealed), url: stored.accountUrl ?? undefined } : undefined;
  }

  async registered(directoryUrl: string, accountUrl: string): Promise<void> {
    await this.em.fork().nativeUpdate(AcmeAccountRecord, { directoryUrl }, { accountUrl });
  }
}
