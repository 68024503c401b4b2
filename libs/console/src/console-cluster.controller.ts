import { ClusterController } from '@app/actors';
import { Bus } from '@app/bus';
import { Get } from '@nestjs/common';
import { ConsoleActor, requireOperator } from './access';
import { ConsoleController } from './console-controller';
import { ConsoleQueries } from './console.queries';
import { Actor } from './console-request';
import { clusterPage } from './views/cluster.page';

/** Operators only: what GET /admin/cluster answers, plus the webhook backlog. */
@ConsoleController()
export class ConsoleClusterController {
  private readonly cluster: ClusterController;

  constructor(
    bus: Bus,
    private readonly queries: ConsoleQueries,
  ) {
    // The admin endpoint's own code, so the page and /admin/cluster cannot disagree.
    this.cluster = new ClusterController(bus);
  }

  @Get('cluster')
  async show(@Actor() actor: ConsoleActor) {
    requireOperator(actor);
    const backlog = await this.queries.webhookBacklog();
    return clusterPage(actor, {
      ...(await this.cluster.status()),
      webhookBacklog: {
        pending: Number(backlog?.pending ?? 0),
        oldestDueAt: backlog?.oldest ? new Date(backlog.oldest).toISOString() : null,
      },
    });
  }
}
