import { askClusterStatus } from '@app/actors';
import { Bus } from '@app/bus';
import { MikroSqlExecutor } from '@app/persistence';
import { Get } from '@nestjs/common';
import { ConsoleActor, requireOperator } from './access';
import { ConsoleController } from './console-controller';
import { Actor } from './console-request';
import { clusterPage } from './views/cluster.page';

/** Operators only: what GET /admin/cluster answers, plus the webhook backlog. */
@ConsoleController()
export class ConsoleClusterController {
  constructor(
    private readonly bus: Bus,
    private readonly db: MikroSqlExecutor,
  ) {}

  @Get('cluster')
  async show(@Actor() actor: ConsoleActor) {
    requireOperator(actor);
    const [backlog] = await this.db.query<{ pending: string; oldest: Date | string | null }>(
      "select count(*) as pending, min(next_attempt_at) as oldest from webhook_deliveries where status = 'pending'",
    );
    return clusterPage(actor, {
      // The query GET /admin/cluster answers with, so the page and the endpoint cannot disagree.
      ...(await askClusterStatus(this.bus)),
      webhookBacklog: {
        pending: Number(backlog?.pending ?? 0),
        oldestDueAt: backlog?.oldest ? new Date(backlog.oldest).toISOString() : null,
      },
    });
  }
}
