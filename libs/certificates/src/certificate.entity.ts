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

  /** Which of our configured CAs issued it (ACME_ISSUERS name). */
  @Property({ type: 'text', nullable: true })
  issuerName: string | null = null;

  /** RFC 9773 CertID: asks the CA's renewal information and names the certificate in `replaces`. */
  @Property({ type: 'text', nullable: true })
  certId: string | null = null;

  @Property({ type: 'datetime', nullable: true })
  renewAt: Date | null = null;

  /** When to ask the CA's renewal information again; null: the CA offers none. */
  @Property({ type: 'datetime', nullable: true })
  ariCheckAt: Date | null = null;

  @Property({ type: 'datetime' })
  createdAt: Date = new Date();

  @Property({ type: 'datetime' })
  updatedAt: Date = new Date();
}
