import { SecretBox } from '@app/crypto';
import { EntityManager } from '@mikro-orm/postgresql';
import { Injectable } from '@nestjs/common';
import { Certificate } from './certificate.entity';

export interface StoredCertificate {
  notBefore: Date;
  notAfter: Date;
}

export interface IssuedCertificate {
  certPem: string;
  keyPem: string;
  notBefore: Date;
  notAfter: Date;
  issuer: string | null;
}

/**
 * The current certificate of each domain (a MikroORM entity); private keys are sealed before they
 * reach the database. Orders run in the node, outside any request, so each call forks its own
 * EntityManager.
 */
@Injectable()
export class CertificateRepository {
  constructor(
    private readonly em: EntityManager,
    private readonly box: SecretBox,
  ) {}

  async find(domainId: string): Promise<StoredCertificate | undefined> {
    const cert = await this.em.fork().findOne(Certificate, { domainId });
    return cert ? { notBefore: cert.notBefore, notAfter: cert.notAfter } : undefined;
  }

  /** One statement: insert, or replace the domain's certificate (its createdAt stays). */
  async save(domainId: string, hostname: string, cert: IssuedCertificate): Promise<void> {
    const now = new Date();
    await this.em.fork().upsert(
      Certificate,
      {
        domainId,
        hostname,
        certPem: cert.certPem,
        keySealed: this.box.seal(cert.keyPem),
        notBefore: cert.notBefore,
        notAfter: cert.notAfter,
        issuer: cert.issuer,
        createdAt: now,
        updatedAt: now,
      },
      { onConflictFields: ['domainId'], onConflictExcludeFields: ['createdAt'] },
    );
  }

  async remove(domainId: string): Promise<void> {
    await this.em.fork().nativeDelete(Certificate, { domainId });
  }
}
