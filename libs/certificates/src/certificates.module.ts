import { DnsModule } from '@app/dns';
import { MikroOrmModule } from '@mikro-orm/nestjs';
import { Module } from '@nestjs/common';
import { AcmeAccountRecord } from './acme-account.entity';
import { Certificate } from './certificate.entity';
import { AcmeAccountRepository } from './acme-account.repository';
import { AcmeChallengeRepository } from './acme-challenge.repository';
import { AcmeIssuer } from './acme-issuer.service';
import { CertificateExpiryMetrics } from './certificate-expiry.metrics';
import { CertificateManager } from './certificate-manager.service';
import { CertificateRepository } from './certificate.repository';

/** ACME issuance and certificate storage (node, standalone). */
@Module({
  imports: [DnsModule, MikroOrmModule.forFeature([Certificate, AcmeAccountRecord])],
  providers: [
    AcmeAccountRepository,
    AcmeChallengeRepository,
    AcmeIssuer,
    CertificateRepository,
    CertificateManager,
    CertificateExpiryMetrics,
  ],
  exports: [CertificateManager, CertificateRepository],
})
export class CertificatesModule {}
