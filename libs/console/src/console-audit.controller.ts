import { Get, Param, Query } from '@nestjs/common';
import { ConsoleActor } from './access';
import { AUDIT_ACTIONS, ConsoleAudit } from './console-audit.store';
import { ConsoleController } from './console-controller';
import { Actor } from './console-request';
import { AuditFilters, auditPage } from './views/audit.page';
import { ConsoleAccess, Workspace } from './console-access';
import type { WorkspaceContext } from './views/layout';

const PAGE_SIZE = 50;

const filtersOf = (q: Record<string, string | undefined>): AuditFilters => ({
  action: AUDIT_ACTIONS.find((a) => a === q.action),
  actor: q.actor?.trim().slice(0, 254) || undefined,
});

@ConsoleController()
export class ConsoleAuditController {
  constructor(private readonly audit: ConsoleAudit) {}

  @ConsoleAccess('signed-in')
  @Get('audit')
  async all(@Actor() actor: ConsoleActor, @Query() q: Record<string, string | undefined>) {
    const filters = filtersOf(q);
    const page = await this.audit.list({
      ...filters,
      workspaceIds: actor.user.operator ? undefined : [...actor.memberships.keys()],
      cursor: q.cursor,
      limit: PAGE_SIZE,
    });
    return auditPage(actor, undefined, page.entries, filters, page.nextCursor);
  }

  @ConsoleAccess('read')
  @Get('w/:ws/audit')
  async ofWorkspace(
    @Actor() actor: ConsoleActor,
    @Workspace() w: WorkspaceContext,
    @Param('ws') ws: string,
    @Query() q: Record<string, string | undefined>,
  ) {
    const filters = filtersOf(q);
    const page = await this.audit.list({ ...filters, workspaceId: ws, cursor: q.cursor, limit: PAGE_SIZE });
    return auditPage(actor, w, page.entries, filters, page.nextCursor);
  }
}
