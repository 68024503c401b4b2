import { ActorNode } from '@app/actors';
import { BackgroundLoop } from '@app/background';
import { APP_CONFIG, AppConfig } from '@app/config';
import { MikroSqlExecutor } from '@app/persistence';
import { BeforeApplicationShutdown, Inject, Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { PURCHASE_KIND, PurchaseCommand } from '../model/purchase.protocol';
import { DuePurchase, renewalsDue, stuckPurchases } from '../store/purchase-sweep.queries';

/** Purchases a sweep hands to their actors at most; the rest wait for the next sweep. */
const BATCH = 100;
/**
 * A saga untouched this long (at most one sweep interval) is stuck: its node died or a provider was
 * down. Resuming one that is in fact running is harmless, as its mailbox runs the resume after it.
 */
const STUCK_SECONDS = 5;

/**
 * On each node, for the shards it owns: resumes purchase sagas (and connect calls, and renewals)
 * left unfinished by a crash, a handoff or a provider outage, and renews purchases with autoRenew
 * ahead of expiry.
 */
@Injectable()
export class PurchaseSweeper implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger(PurchaseSweeper.name);
  private readonly sweeps: BackgroundLoop;

  constructor(
    private readonly node: ActorNode,
    private readonly db: MikroSqlExecutor,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {
    this.sweeps = new BackgroundLoop({
      everyMs: config.purchaseSweepSeconds * 1000,
      run: () => this.sweep(),
      logger: this.logger,
      failure: 'Purchase sweep failed',
    });
  }

  onApplicationBootstrap(): void {
    this.sweeps.start();
  }

  beforeApplicationShutdown(): void {
    // Not awaited: a sweep in progress may wait on a provider, and the node's drain must not wait on it.
    void this.sweeps.stop();
  }

  private async sweep(): Promise<void> {
    const shards = this.node.shards.ownedShards();
    if (!shards.length) return;
    const stuckSeconds = Math.min(STUCK_SECONDS, this.config.purchaseSweepSeconds);
    for (const due of await stuckPurchases(this.db, shards, stuckSeconds, BATCH))
      await this.send(due, { type: 'resume' });
    const renewDays = this.config.purchaseRenewDays;
    for (const due of await renewalsDue(this.db, shards, renewDays, BATCH))
      await this.send(due, { type: 'auto_renew', renewDays });
  }

  private async send(due: DuePurchase, command: PurchaseCommand): Promise<void> {
    const response = await this.node.host.dispatch(due.shard, {
      kind: PURCHASE_KIND,
      id: due.id,
      command,
      commandId: randomUUID(),
      attempt: 1,
    });
    if ('ok' in response && !response.ok)
      this.logger.log({ purchaseId: due.id, command: command.type, error: response.error }, 'Purchase sweep step');
  }
}
