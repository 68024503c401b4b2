import { ActorRegistry } from '@app/actors';
import { CertificateManager, CertificatesModule } from '@app/certificates';
import { APP_CONFIG, AppConfig } from '@app/config';
import { edgeSettingsOf } from '@app/kernel';
import { DnsModule, DnsProber, OriginPreflight, ServedCertificateProbe } from '@app/dns';
import { ProjectsModule } from '@app/projects';
import { WorkspacesModule } from '@app/workspaces';
import { Inject, Injectable, Module, OnModuleInit } from '@nestjs/common';
import { DomainActor } from './node/domain.actor';
import { CheckRestartsBackoff } from './node/check-restarts-backoff';
import { LiveDomainProbe } from './node/domain-probe';
import { CheckDomain } from './api/check-domain.usecase';
import { CreateDomain } from './api/create-domain.usecase';
import { DeleteDomain } from './api/delete-domain.usecase';
import { DomainActors } from './api/domain-actors.client';
import { DomainCommands } from './api/domain-commands';
import { DomainProjectCheck } from './api/domain-project.check';
import { UpdateDomain } from './api/update-domain.usecase';
import { DomainMonitor } from './node/domain-monitor.service';
import { DomainPreflight } from './api/domain-preflight.service';
import { DomainHotReads } from './store/domain-hot.reads';
import { DomainRepository } from './store/domain.repository';
import { DomainViews } from './api/domain-views.service';
import { DomainReadFastPath } from './api/domain-read.fast-path';
import { DomainCreateFastPath } from './api/domain-create.fast-path';
import { DomainsController } from './api/domains.controller';
import { BulkCreateDomains } from './api/bulk-create.usecase';
import { DomainsBulkController } from './api/domains-bulk.controller';
import { HostnameClaims } from './api/hostname-claim.service';
import { LEGACY_RENEW_DAYS } from './model/domain-certificate';

/** The /v1/domains API (api, standalone). */
@Module({
  imports: [DnsModule, WorkspacesModule, ProjectsModule],
  controllers: [DomainsController, DomainsBulkController],
  providers: [
    CreateDomain,
    UpdateDomain,
    DeleteDomain,
    CheckDomain,
    DomainCommands,
    DomainActors,
    DomainProjectCheck,
    DomainPreflight,
    DomainRepository,
    DomainViews,
    DomainReadFastPath,
    DomainCreateFastPath,
    DomainHotReads,
    BulkCreateDomains,
    HostnameClaims,
  ],
  exports: [DomainRepository, DomainCommands],
})
export class DomainsApiModule {}

@Injectable()
class DomainActorRegistration implements OnModuleInit {
  constructor(
    private readonly registry: ActorRegistry,
    private readonly domains: DomainRepository,
    private readonly prober: DnsProber,
    private readonly preflight: OriginPreflight,
    private readonly served: ServedCertificateProbe,
    private readonly certificates: CertificateManager,
    private readonly monitor: DomainMonitor,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  onModuleInit(): void {
    const edge = edgeSettingsOf(this.config);
    const actor = new DomainActor({
      hostnames: this.domains,
      probe: new LiveDomainProbe(this.prober, this.preflight, this.served),
      edge,
      monitorIntervalSeconds: this.config.monitorIntervalSeconds,
      certificates: this.certificates,
      renewDays: LEGACY_RENEW_DAYS,
      takeoverGuardDays: this.config.takeoverGuardDays,
      scheduleChanged: (change) => this.monitor.scheduleChanged(change),
    });
    // A check of a domain not serving HTTPS yet restarts its pending back-off (the monitor's schedule).
    this.registry.register(new CheckRestartsBackoff(actor, (id) => this.monitor.restartBackoff(id)));
  }
}

/** The domain actors and their monitor (node, standalone). */
@Module({
  imports: [DnsModule, CertificatesModule],
  providers: [DomainActorRegistration, DomainMonitor, DomainRepository],
})
export class DomainsNodeModule {}
