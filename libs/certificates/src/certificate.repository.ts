import { SecretBox } from '@app/crypto';
import { EntityManager } from '@mikro-orm/postgresql';
import { Injectable } from '@nestjs/common';
import type { IssuedCertificate } from './acme/acme-issuers.service';
import { Certificate } from './certificate.entity';

export interface StoredCertificate {
  domainId: string;
  hostname: string;
  notBefore: Date;
  notAfter: Date;
  issuerName: string | null;
  certId: string | null;
  renewAt: Date | null;
}

export interface RenewalPlan {
  renewAt: Date;
  /** Null: the CA offers no renewal information, nothing to ask again. */
  ariCheckAt: Date | null;
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
    return cert ? stored(cert) : undefined;
  }

  /** One statement: insert, or replace the domain's certificate (its createdAt stays). */
  async save(domainId: string, hostname: string, cert: IssuedCertificate, plan: RenewalPlan): Promise<void> {
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
        issuerName: cert.issuerName,
        certId: cert.certId ?? null,
        renewAt: plan.renewAt,
        ariCheckAt: plan.ariCheckAt,
        createdAt: now,
        updatedAt: now,
      },
      { onConflictFields: ['domainId'], onConflictExcludeFields: ['createdAt'] },
    );
  }

  /** A new renewal plan for the certificate `certId` (unchanged if it was replaced meanwhile). */
  async replan(domainId: string, certId: string, plan: RenewalPlan): Promise<void> {
    await this.em
      .fork()
      .nativeUpdate(Certificate, { domainId, certId }, { renewAt: plan.renewAt, ariCheckAt: plan.ariCheckAt });
  }

  async remove(domainId: string): Promise<void> {
    await this.em.fork().nativeDelete(Certificate, { domainId });
  }
}

const stored = (cert: Certificate): StoredCertificate => ({
  domainId: cert.domainId,
  hostname: cert.hostname,
  notBefore: cert.notBefore,
  notAfter: cert.notAfter,
  issuerName: cert.issuerName,
  certId: cert.certId,
  renewAt: cert.renewAt,
});
