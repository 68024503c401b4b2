import { MikroSqlExecutor } from '@app/persistence';
import { WorkspaceRepository } from '@app/workspaces';
import { Injectable } from '@nestjs/common';
import { ConsoleActor, requireRead, requireWrite, roleIn } from './access';
import { WorkspaceContext } from './views/layout';
import { WorkspaceRow } from './views/workspaces.page';

/** Which workspaces a console user sees, and the counts the overview shows. */
@Injectable()
export class ConsoleWorkspaces {
  constructor(
    private readonly db: MikroSqlExecutor,
    private readonly workspaces: WorkspaceRepository,
  ) {}

  /** The workspace as page context; 404 when the actor is not in it. */
  async context(actor: ConsoleActor, workspaceId: string, write = false): Promise<WorkspaceContext> {
    if (write) requireWrite(actor, workspaceId);
    else requireRead(actor, workspaceId);
    const workspace = await this.workspaces.get(workspaceId);
    return { id: workspace.id, name: workspace.name, canWrite: roleIn(actor, workspaceId) === 'member' };
  }

  async visible(actor: ConsoleActor): Promise<WorkspaceRow[]> {
    const ids = [...actor.memberships.keys()];
    if (!actor.user.operator && !ids.length) return [];
    const rows = await this.db.query<{
      id: string;
      name: string;
      payment_method_id: string | null;
      created_at: Date | string;
      domains: string;
    }>(
      `select w.id, w.name, w.payment_method_id, w.created_at,
         (select count(*) from domains d where d.workspace_id = w.id and d.deleted_at is null) as domains
       from workspaces w ${actor.user.operator ? '' : 'where w.id = any(?::text[])'}
       order by w.created_at desc limit 500`,
      actor.user.operator ? [] : [ids],
    );
    return rows.map((r) => ({
      id: r.id,
      name: r.name,
      domains: Number(r.domains),
      hasPaymentMethod: r.payment_method_id !== null,
      createdAt: new Date(r.created_at).toISOString(),
    }));
  }

  async counts(workspaceId: string) {
    const byStatus = await this.db.query<{ status: string; count: string }>(
      `select status, count(*) as count from domains where workspace_id = ? and deleted_at is null group by status order by status`,
      [workspaceId],
    );
    const [other] = await this.db.query<{ keys: string; endpoints: string; dead: string }>(
      `select (select count(*) from api_keys where workspace_id = ? and revoked_at is null) as keys,
              (select count(*) from webhook_endpoints where workspace_id = ?) as endpoints,
              (select count(*) from webhook_deliveries where workspace_id = ? and status = 'dead_lettered') as dead`,
      [workspaceId, workspaceId, workspaceId],
    );
    return {
      byStatus: byStatus.map((s) => ({ status: s.status, count: Number(s.count) })),
      domains: byStatus.reduce((n, s) => n + Number(s.count), 0),
      keys: Number(other?.keys ?? 0),
      endpoints: Number(other?.endpoints ?? 0),
      deadLetters: Number(other?.dead ?? 0),
    };
  }
}
