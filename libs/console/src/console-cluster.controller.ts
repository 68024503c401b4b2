import { askClusterStatus } from '@app/actors';
import { Bus } from '@app/bus';
import { APP_CONFIG, AppConfig } from '@app/config';
import { Get, Inject } from '@nestjs/common';
import { ConsoleActor } from './access';
import { ConsoleController } from './console-controller';
import { ConsoleQueries } from './console.queries';
import { Actor } from './console-request';
import { clusterPage } from './views/cluster.page';
import { ConsoleAccess } from './console-access';

/** Operators only: what GET /admin/cluster answers (with each node's rates), the monitor's lag and the webhook backlog. */
@ConsoleController()
export class ConsoleClusterController {
  constructor(
    private readonly bus: Bus,
    private readonly queries: ConsoleQueries,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  @ConsoleAccess('operator')
  @Get('cluster')
  async show(@Actor() actor: ConsoleActor) {
    const backlog = await this.queries.webhookBacklog();
    const lag = await this.queries.monitorLag(this.config.monitorIntervalSeconds);
    return clusterPage(actor, {
      // The query GET /admin/cluster answers with, so the page and the endpoint cannot disagree.
      ...(await askClusterStatus(this.bus)),
      webhookBacklog: {
        pending: Number(backlog?.pending ?? 0),
        oldestDueAt: backlog?.oldest ? new Date(backlog.oldest).toISOString() : null,
      },
      monitor: {
        // Due but not yet probed: a positive lag only (a next probe in the future is no lag).
        lagSeconds: Math.max(0, lag?.lag_seconds ?? 0),
        overdue: Number(lag?.overdue ?? 0),
      },
    });
  }
}
