import { Entity, PrimaryKey, Property } from '@mikro-orm/core';

/** The ACME account of one directory (`acme_accounts`); its key is sealed (SecretBox). */
@Entity({ tableName: 'acme_accounts' })
export class AcmeAccountRecord {
  @PrimaryKey({ type: 'text' })
  directoryUrl: string;

  @Property({ type: 'text' })
  keySealed: string;

  /** Known once the account is registered with the directory. */
  @Property({ type: 'text', nullable: true })
  accountUrl: string | null = null;

  @Property({ type: 'datetime' })
  createdAt: Date = new Date();

  constructor(directoryUrl: string, keySealed: string) {
    this.directoryUrl = directoryUrl;
    this.keySealed = keySealed;
  }
}
