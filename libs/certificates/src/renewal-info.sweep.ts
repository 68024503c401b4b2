import { ActorClient, ActorNode } from '@app/actors';
import { BackgroundLoop } from '@app/background';
import { domainCertificateProtocol } from '@app/kernel';
import { MikroSqlExecutor } from '@app/persistence';
import { Injectable, Logger, OnApplicationBootstrap, BeforeApplicationShutdown } from '@nestjs/common';
import { AcmeIssuers } from './acme/acme-issuers.service';
import { CertificateRepository } from './certificate.repository';
import { claimAriDue } from './renewal-info.queries';
import { RenewalPlanner } from './renewal-planner.service';

const BATCH = 100;
const EVERY_MS = 30_000;

/**
 * Asks the CAs' renewal information (ARI) again for the certificates of this node's shards when it
 * is due (the CA's Retry-After, or a few hours), and tells a domain's actor when the CA moved its
 * renewal time: a CA that revokes certificates early says so through ARI, and those renew at once.
 */
@Injectable()
export class RenewalInfoSweep implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger(RenewalInfoSweep.name);
  private readonly loop = new BackgroundLoop({
    everyMs: EVERY_MS,
    run: () => this.sweep(),
    logger: this.logger,
    failure: 'Renewal information sweep failed',
  });

  constructor(
    private readonly node: ActorNode,
    private readonly db: MikroSqlExecutor,
    private readonly issuers: AcmeIssuers,
    private readonly planner: RenewalPlanner,
    private readonly certificates: CertificateRepository,
    private readonly actors: ActorClient,
  ) {}

  onApplicationBootstrap(): void {
    this.loop.start();
  }

  async beforeApplicationShutdown(): Promise<void> {
    await this.loop.stop();
  }

  /** One batch; `true` (go on at once) while batches come back full. */
  async sweep(): Promise<boolean> {
    const due = await claimAriDue(this.db, this.node.shards.ownedShards(), BATCH);
    for (const cert of due) {
      const issuer = this.issuers.list().find((i) => i.name === cert.issuerName);
      if (!issuer) continue; // an issuer removed from ACME_ISSUERS: the lifetime rule stands
      const plan = await this.planner.plan(issuer, cert, cert.renewAt ?? undefined);
      await this.certificates.replan(cert.domainId, cert.certId, plan);
      if (cert.renewAt?.getTime() === plan.renewAt.getTime()) continue;
      const command = { type: 'certificate', result: 'renewal_advised', renewAt: plan.renewAt.toISOString() } as const;
      await this.actors.ask(domainCertificateProtocol, cert.domainId, command).catch((err: unknown) => {
        this.logger.warn({ err, domainId: cert.domainId }, 'Telling a domain its new renewal time failed');
      });
    }
    return due.length === BATCH;
  }
}
