import { ActorClient, ActorRegistry } from '@app/actors';
import { Bus } from '@app/bus';
import { APP_CONFIG, AppConfig } from '@app/config';
import { edgeSettingsOf } from '@app/kernel';
import { DnsModule, OriginPreflight } from '@app/dns';
import { DomainsApiModule } from '@app/domains';
import { Payments, PaymentsModule } from '@app/payments';
import { MikroSqlExecutor } from '@app/persistence';
import { Registrar, RegistrarModule } from '@app/registrar';
import { WorkspacesModule } from '@app/workspaces';
import { Inject, Injectable, Module, OnModuleInit, Optional } from '@nestjs/common';
import { PurchaseActor } from './node/purchase.actor';
import { AutoConnectCheck } from './api/auto-connect.check';
import { ConnectPurchase } from './api/connect-purchase.usecase';
import { CreatePurchase } from './api/create-purchase.usecase';
import { PurchaseActors } from './api/purchase-actors.client';
import { RenewPurchase } from './api/renew-purchase.usecase';
import { SetAutoRenew } from './api/set-auto-renew.usecase';
import { SetNameservers } from './api/set-nameservers.usecase';
import { PurchaseQueries } from './api/purchase-queries.usecase';
import { PurchaseRepository } from './store/purchase.repository';
import { PurchaseSweeper } from './node/purchase-sweeper.service';
import { PurchasesController } from './api/purchases.controller';
import { SAGA_STEP_LISTENER, SagaStepListener, noSagaStepListener } from './saga-step-listener';

/** The /v1/domain-purchases API (api, standalone). */
@Module({
  imports: [DnsModule, RegistrarModule, DomainsApiModule, WorkspacesModule],
  controllers: [PurchasesController],
  providers: [
    CreatePurchase,
    SetAutoRenew,
    RenewPurchase,
    SetNameservers,
    ConnectPurchase,
    PurchaseActors,
    AutoConnectCheck,
    PurchaseQueries,
    PurchaseRepository,
  ],
  // The console calls the same use cases as /v1/domain-purchases.
  exports: [
    PurchaseRepository,
    PurchaseQueries,
    CreatePurchase,
    RenewPurchase,
    SetAutoRenew,
    SetNameservers,
    ConnectPurchase,
  ],
})
export class PurchasesApiModule {}

@Injectable()
class PurchaseActorRegistration implements OnModuleInit {
  constructor(
    private readonly registry: ActorRegistry,
    private readonly db: MikroSqlExecutor,
    private readonly registrar: Registrar,
    private readonly payments: Payments,
    private readonly actors: ActorClient,
    private readonly preflight: OriginPreflight,
    private readonly bus: Bus,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Optional() @Inject(SAGA_STEP_LISTENER) private readonly steps?: SagaStepListener,
  ) {}

  onModuleInit(): void {
    this.registry.register(
      new PurchaseActor({
        db: this.db,
        registrar: this.registrar,
        payments: this.payments,
        actors: this.actors,
        preflight: this.preflight,
        bus: this.bus,
        edge: edgeSettingsOf(this.config),
        fees: { percent: this.config.purchaseFeePercent, minCents: this.config.purchaseFeeMinCents },
        steps: this.steps ?? noSagaStepListener,
      }),
    );
  }
}

/** The purchase actors, their recovery sweeper and the auto-renew job (node, standalone). */
@Module({
  imports: [DnsModule, RegistrarModule, PaymentsModule],
  providers: [PurchaseActorRegistration, PurchaseSweeper],
})
export class PurchasesNodeModule {}
