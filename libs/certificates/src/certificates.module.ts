import { DnsModule } from '@app/dns';
import { MikroOrmModule } from '@mikro-orm/nestjs';
import { Module } from '@nestjs/common';
import { AcmeAccountRecord } from './acme-account.entity';
import { AcmeAccountRepository } from './acme-account.repository';
import { AcmeChallengeRepository } from './acme-challenge.repository';
import { AcmeIssuers } from './acme/acme-issuers.service';
import { CertificateExpiryMetrics } from './certificate-expiry.metrics';
import { CertificateManager } from './certificate-manager.service';
import { CertificateOrders } from './certificate-order.service';
import { Certificate } from './certificate.entity';
import { CertificateRepository } from './certificate.repository';
import { IssuanceBudget } from './issuance-budget.store';
import { RenewalInfoSweep } from './renewal-info.sweep';
import { RenewalPlanner } from './renewal-planner.service';

/** ACME issuance, renewal planning and certificate storage (node, standalone). */
@Module({
  imports: [DnsModule, MikroOrmModule.forFeature([Certificate, AcmeAccountRecord])],
  providers: [
    AcmeAccountRepository,
    AcmeChallengeRepository,
    AcmeIssuers,
    CertificateRepository,
    CertificateOrders,
    CertificateManager,
    CertificateExpiryMetrics,
    IssuanceBudget,
    RenewalPlanner,
    RenewalInfoSweep,
  ],
  exports: [CertificateManager, CertificateRepository],
})
export class CertificatesModule {}
