import { WorkspaceRepository } from '@app/workspaces';
import { Injectable } from '@nestjs/common';
import { ConsoleActor, roleIn } from './access';
import { WorkspaceContext } from './views/layout';
import { WorkspaceRow } from './views/workspaces.page';
import { ConsoleQueries } from './console.queries';

/** Which workspaces a console user sees, and the counts the overview shows. */
@Injectable()
export class ConsoleWorkspaces {
  constructor(
    private readonly queries: ConsoleQueries,
    private readonly workspaces: WorkspaceRepository,
  ) {}

  /** The workspace as page context (ConsoleGuard has checked the actor's access to it). */
  async context(actor: ConsoleActor, workspaceId: string): Promise<WorkspaceContext> {
    const workspace = await this.workspaces.get(workspaceId);
    return { id: workspace.id, name: workspace.name, canWrite: roleIn(actor, workspaceId) === 'member' };
  }

  async visible(actor: ConsoleActor): Promise<WorkspaceRow[]> {
    const ids = [...actor.memberships.keys()];
    if (!actor.user.operator && !ids.length) return [];
    const rows = await this.queries.workspacesWithDomainCounts(actor.user.operator ? undefined : ids);
    return rows.map((r) => ({
      id: r.id,
      name: r.name,
      domains: Number(r.domains),
      hasPaymentMethod: r.payment_method_id !== null,
      createdAt: new Date(r.created_at).toISOString(),
    }));
  }

  async counts(workspaceId: string) {
    const byStatus = await this.queries.liveDomainsByStatus(workspaceId);
    const other = await this.queries.workspaceTotals(workspaceId);
    return {
      byStatus: byStatus.map((s) => ({ status: s.status, count: Number(s.count) })),
      domains: byStatus.reduce((n, s) => n + Number(s.count), 0),
      keys: Number(other?.keys ?? 0),
      endpoints: Number(other?.endpoints ?? 0),
      deadLetters: Number(other?.dead ?? 0),
    };
  }
}
