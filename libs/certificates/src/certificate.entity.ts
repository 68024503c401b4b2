import { Entity, PrimaryKey, Property } from '@mikro-orm/core';

/** The current certificate of a domain (`certificates`); the private key is sealed (SecretBox). */
@Entity({ tableName: 'certificates' })
export class Certificate {
  @PrimaryKey({ type: 'text' })
  domainId!: string;

  @Property({ type: 'text' })
  hostname!: string;

  @Property({ type: 'text' })
  certPem!: string;

  @Property({ type: 'text' })
  keySealed!: string;

  @Property({ type: 'datetime' })
  notBefore!: Date;

  @Property({ type: 'datetime' })
  notAfter!: Date;

  @Property({ type: 'text', nullable: true })
  issuer!: string | null;

  @Property({ type: 'datetime' })
  createdAt: Date = new Date();

  @Property({ type: 'datetime' })
  updatedAt: Date = new Date();
}
