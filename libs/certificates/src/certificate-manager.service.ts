import { ActorClient } from '@app/actors';
import { Bus } from '@app/bus';
import { APP_CONFIG, AppConfig } from '@app/config';
import { DomainError, domainCertificateProtocol, publishEdgeInvalidation } from '@app/kernel';
import { Inject, Injectable, Logger } from '@nestjs/common';
import { CertificateOrders, OrderOutcome, OrderRequest } from './certificate-order.service';
import { CertificateOrderMetrics } from './certificate-orders.metrics';
import { CertificateRepository } from './certificate.repository';
import { FairQueue } from './model/fair-queue';
import { failureMessage } from './model/issuance-messages';

/** A queued order expected to start later than this tells its domain when (instead of looking stuck). */
const QUEUE_NOTICE_MS = 60_000;

/**
 * Orders certificates for the domains of this node's shards: a queue fair across workspaces (one
 * workspace's bulk import cannot hold another's single domain back more than a turn), at most
 * ACME_CONCURRENCY orders at once, one per domain. Every outcome goes back to the domain's actor
 * as a `certificate` command, so it is shown on the domain.
 */
@Injectable()
export class CertificateManager {
  private readonly logger = new Logger(CertificateManager.name);
  private readonly queue = new FairQueue<OrderRequest>();
  private readonly running = new Set<string>();
  /** Average order time (ms), to tell a queued domain when its turn comes. */
  private averageOrderMs = 5_000;
  /** The CAs' accounts are out of new orders until then: the queue waits, in its order. */
  private waitUntil = 0;
  private waitTimer?: NodeJS.Timeout;
  private wakeTime = 0;

  constructor(
    private readonly orders: CertificateOrders,
    private readonly certificates: CertificateRepository,
    private readonly actors: ActorClient,
    private readonly bus: Bus,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {
    CertificateOrderMetrics.get().bind(() => ({ queued: this.queue.size, inFlight: this.running.size }));
  }

  /**
   * Queues an order unless one is queued or running for the domain. Pumps either way: a request for
   * a domain already queued (the monitor asks again) is also a chance to start what may start.
   */
  request(domain: OrderRequest): void {
    if (this.running.has(domain.id)) return;
    const added = this.queue.enqueue(domain.workspaceId, domain.id, domain);
    this.pump();
    if (added) this.noticeIfLong(domain);
  }

  ordersInFlight(): number {
    return this.running.size;
  }

  ordersQueued(): number {
    return this.queue.size;
  }

  private pump(): void {
    while (this.running.size < this.config.acmeConcurrency) {
      // Waiting for the accounts' budget: a wake-up is always set while orders wait (a timer that fired
      // a moment early, or a wait set while the last one was pending, must not leave the queue asleep).
      if (Date.now() < this.waitUntil) return this.wakeAt(this.waitUntil);
      const next = this.queue.next();
      if (!next) return;
      const domain = next.item;
      this.running.add(domain.id);
      const started = Date.now();
      void this.orders
        .run(domain)
        .then((outcome) =>
          outcome.type === 'wait' ? this.waitForBudget(domain, outcome.until) : this.report(domain, outcome),
        )
        .catch((err: unknown) => this.logger.error({ err, domainId: domain.id }, 'Certificate order crashed'))
        .finally(() => {
          this.averageOrderMs = 0.8 * this.averageOrderMs + 0.2 * (Date.now() - started);
          this.running.delete(domain.id);
          this.pump();
        });
    }
  }

  /**
   * Back at the head of the queue (it did not get to use its turn) and no order starts before the
   * accounts have room: the queue, not a herd of retries, decides who gets the next new order.
   * Put at the end, it lost its turn to the order started just before it on every try (the
   * certificate-budget e2e saw the other workspace's order wait behind 4 of a bulk import's).
   */
  private waitForBudget(domain: OrderRequest, until: Date): void {
    this.queue.putBack(domain.workspaceId, domain.id, domain);
    this.waitUntil = Math.max(this.waitUntil, until.getTime());
    // The order's `finally` pumps next, which sets the wake-up for the new time.
  }

  /** One timer, for the latest wait: it pumps, and the pump sets another if the time has not come. */
  private wakeAt(at: number): void {
    if (!this.queue.size || (this.waitTimer && this.wakeTime === at)) return;
    clearTimeout(this.waitTimer);
    this.wakeTime = at;
    this.waitTimer = setTimeout(
      () => {
        this.waitTimer = undefined;
        this.pump();
      },
      Math.max(1, at - Date.now()),
    );
    this.waitTimer.unref();
  }

  /** A long queue (a bulk import) tells the domain when its order should start. */
  private noticeIfLong(domain: OrderRequest): void {
    const position = this.queue.positionOf(domain.id);
    if (position === undefined) return;
    const waitMs = Math.ceil((position + 1) / this.config.acmeConcurrency) * this.averageOrderMs;
    if (waitMs < QUEUE_NOTICE_MS) return;
    const now = new Date();
    const retryAt = new Date(now.getTime() + waitMs);
    const context = { hostname: domain.hostname, ca: '', detail: '', retryAt };
    const outcome = {
      type: 'certificate' as const,
      result: 'deferred' as const,
      code: 'queued',
      message: failureMessage('queued', context, now),
      retryAt: retryAt.toISOString(),
      retryOnCheck: false,
      attempts: [],
    };
    void this.report(domain, outcome).catch((err: unknown) =>
      this.logger.warn({ err, domainId: domain.id }, 'Telling a queued domain its expected time failed'),
    );
  }

  private async report(domain: OrderRequest, outcome: OrderOutcome): Promise<void> {
    if (outcome.result === 'issued') publishEdgeInvalidation(this.bus, domain.hostname);
    try {
      await this.actors.ask(domainCertificateProtocol, domain.id, outcome);
      // After the commit: the API's cached view of the domain (certificate fields) is now stale.
      publishEdgeInvalidation(this.bus, domain.hostname);
    } catch (error) {
      // Deleted while the order ran: its certificate must not outlive it.
      if (error instanceof DomainError && error.code === 'not_found') await this.certificates.remove(domain.id);
      else throw error;
    }
  }
}
