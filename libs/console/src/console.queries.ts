import { MikroSqlExecutor } from '@app/persistence';
import { Injectable } from '@nestjs/common';

export interface WorkspaceOverviewRow {
  id: string;
  name: string;
  payment_method_id: string | null;
  created_at: Date | string;
  domains: string;
}

export interface TimelineEventRow {
  id: string;
  type: string;
  data: { domain?: { status?: string; monitorStatus?: string; monitorMessage?: string }; previousStatus?: string };
  created_at: Date | string;
  delivered: string;
  dead: string;
  pending: string;
}

/** What the console pages count and join across aggregates (a read model: raw SQL on purpose, see raw-sql.ts). */
@Injectable()
export class ConsoleQueries {
  constructor(private readonly db: MikroSqlExecutor) {}

  /** Newest first, at most 500; `ids` undefined: every workspace (operators). */
  workspacesWithDomainCounts(ids: string[] | undefined): Promise<WorkspaceOverviewRow[]> {
    return this.db.query<WorkspaceOverviewRow>(
      `select w.id, w.name, w.payment_method_id, w.created_at,
         (select count(*) from domains d where d.workspace_id = w.id and d.deleted_at is null) as domains
       from workspaces w ${ids ? 'where w.id = any(?::text[])' : ''}
       order by w.created_at desc limit 500`,
      ids ? [ids] : [],
    );
  }

  liveDomainsByStatus(workspaceId: string): Promise<{ status: string; count: string }[]> {
    return this.db.query<{ status: string; count: string }>(
      `select status, count(*) as count from domains where workspace_id = ? and deleted_at is null group by status order by status`,
      [workspaceId],
    );
  }

  async workspaceTotals(workspaceId: string): Promise<{ keys: string; endpoints: string; dead: string } | undefined> {
    const [row] = await this.db.query<{ keys: string; endpoints: string; dead: string }>(
      `select (select count(*) from api_keys where workspace_id = ? and revoked_at is null) as keys,
              (select count(*) from webhook_endpoints where workspace_id = ?) as endpoints,
              (select count(*) from webhook_deliveries where workspace_id = ? and status = 'dead_lettered') as dead`,
      [workspaceId, workspaceId, workspaceId],
    );
    return row;
  }

  /** A domain's events with the webhook deliveries of each, newest first. */
  domainEvents(workspaceId: string, domainId: string, limit: number): Promise<TimelineEventRow[]> {
    return this.db.query<TimelineEventRow>(
      `select e.id, e.type, e.data, e.created_at,
         count(d.id) filter (where d.status = 'delivered') as delivered,
         count(d.id) filter (where d.status = 'dead_lettered') as dead,
         count(d.id) filter (where d.status = 'pending') as pending
       from outbox_events e left join webhook_deliveries d on d.event_id = e.id
       where e.aggregate_id = ? and e.workspace_id = ?
       group by e.id order by e.created_at desc limit ?`,
      [domainId, workspaceId, limit],
    );
  }

  /** The console actions on one target, newest first. */
  auditOfTarget(
    workspaceId: string,
    target: string,
    limit: number,
  ): Promise<{ actor: string; action: string; created_at: Date | string }[]> {
    return this.db.query<{ actor: string; action: string; created_at: Date | string }>(
      `select actor, action, created_at from console_audit where workspace_id = ? and target = ?
       order by created_at desc limit ?`,
      [workspaceId, target, limit],
    );
  }

  async webhookBacklog(): Promise<{ pending: string; oldest: Date | string | null } | undefined> {
    const [row] = await this.db.query<{ pending: string; oldest: Date | string | null }>(
      "select count(*) as pending, min(next_attempt_at) as oldest from webhook_deliveries where status = 'pending'",
    );
    return row;
  }

  /**
   * The monitor's lag: how long the oldest probe due is overdue, and how many are (counted up to
   * 10,001). Both walk the next-probe index from its start, so they cost little however many domains.
   */
  async monitorLag(): Promise<{ lag_seconds: number | null; overdue: string } | undefined> {
    const [row] = await this.db.query<{ lag_seconds: number | null; overdue: string }>(
      `select extract(epoch from now() - (select min(next_probe_at) from domain_schedule))::float8
                as lag_seconds,
              (select count(*) from (select 1 from domain_schedule where next_probe_at < now()
                 limit 10001) due) as overdue`,
    );
    return row;
  }

  deadLettersByEndpoint(workspaceId: string): Promise<{ endpoint_id: string; n: string }[]> {
    return this.db.query<{ endpoint_id: string; n: string }>(
      `select endpoint_id, count(*) as n from webhook_deliveries where workspace_id = ? and status = 'dead_lettered' group by endpoint_id`,
      [workspaceId],
    );
  }
}
