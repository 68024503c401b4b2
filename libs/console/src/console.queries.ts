import type { DomainRecord } from '@app/domains';
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

export interface HostnameMatchRow {
  id: string;
  hostname: string;
  workspace_id: string;
  workspace_name: string;
  status: string;
  monitor_status: string;
  created_at: Date | string;
}

export interface EndpointHealthRow {
  endpoint_id: string;
  tried: string;
  ok: string;
  failing_since: Date | string | null;
  last_error: string | null;
  last_status: number | null;
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
   * The monitor's lag from the shards' watermarks (`shard_leases.monitored_until`, written every few
   * seconds): how long the earliest probe not done is overdue, and how many domains have a phase
   * slot between their shard's watermark and now (counted up to 10,001; only shards behind are read).
   */
  async monitorLag(intervalSeconds: number): Promise<{ lag_seconds: number | null; overdue: string } | undefined> {
    const [row] = await this.db.query<{ lag_seconds: number | null; overdue: string }>(
      `select extract(epoch from now() - (select min(monitored_until) from shard_leases))::float8 as lag_seconds,
         (select count(*) from (
            select 1 from shard_leases l join domains d on d.shard = l.shard and d.deleted_at is null and d.released_at is null
            where l.monitored_until < now() and to_timestamp(
              ceil((extract(epoch from l.monitored_until) - (d.state->>'probePhase')::float8 * ?::float8) / ?::float8) * ?::float8
                + (d.state->>'probePhase')::float8 * ?::float8) < now()
            limit 10001) due) as overdue`,
      [intervalSeconds, intervalSeconds, intervalSeconds, intervalSeconds],
    );
    return row;
  }

  deadLettersByEndpoint(workspaceId: string): Promise<{ endpoint_id: string; n: string }[]> {
    return this.db.query<{ endpoint_id: string; n: string }>(
      `select endpoint_id, count(*) as n from webhook_deliveries where workspace_id = ? and status = 'dead_lettered' group by endpoint_id`,
      [workspaceId],
    );
  }

  /**
   * Each endpoint's health from its kept attempts of the last 7 days: attempts and successes in the
   * last 24 hours, the first failure since its last success (failing since) and the latest failure.
   */
  endpointHealth(workspaceId: string, endpointId?: string): Promise<EndpointHealthRow[]> {
    return this.db.query<EndpointHealthRow>(
      `with a as (
         select d.endpoint_id, t.attempted_at, t.outcome, t.error, t.status_code
         from webhook_delivery_attempts t join webhook_deliveries d on d.id = t.delivery_id
         where d.workspace_id = ? and (?::text is null or d.endpoint_id = ?) and t.attempted_at > now() - interval '7 days'
       ), last_ok as (select endpoint_id, max(attempted_at) as at from a where outcome = 'delivered' group by endpoint_id)
       select a.endpoint_id,
         count(*) filter (where a.attempted_at > now() - interval '24 hours') as tried,
         count(*) filter (where a.attempted_at > now() - interval '24 hours' and a.outcome = 'delivered') as ok,
         min(a.attempted_at) filter (where a.outcome <> 'delivered' and a.attempted_at > coalesce(last_ok.at, '-infinity')) as failing_since,
         (array_agg(a.error order by a.attempted_at desc) filter (where a.outcome <> 'delivered'))[1] as last_error,
         (array_agg(a.status_code order by a.attempted_at desc) filter (where a.outcome <> 'delivered'))[1] as last_status
       from a left join last_ok using (endpoint_id) group by a.endpoint_id`,
      [workspaceId, endpointId ?? null, endpointId ?? null],
    );
  }

  /** The hostname each event is about (a domain's or a purchase's), for the deliveries table. */
  eventHostnames(eventIds: string[]): Promise<{ id: string; hostname: string | null }[]> {
    if (!eventIds.length) return Promise.resolve([]);
    return this.db.query<{ id: string; hostname: string | null }>(
      `select id, coalesce(data #>> '{domain,hostname}', data #>> '{purchase,hostname}') as hostname
       from outbox_events where id = any(?::text[])`,
      [eventIds],
    );
  }

  /** Live domains of every workspace whose hostname contains `text` (the trigram index on lower(hostname)). */
  hostnamesContaining(text: string, limit: number): Promise<HostnameMatchRow[]> {
    return this.db.query<HostnameMatchRow>(
      `select d.id, d.hostname, d.workspace_id, w.name as workspace_name, d.status, d.monitor_status, d.created_at
       from domains d join workspaces w on w.id = d.workspace_id
       where d.deleted_at is null and lower(d.hostname) like ? escape '\\'
       order by d.hostname limit ?`,
      [`%${text.toLowerCase().replace(/[\\%_]/g, '\\$&')}%`, limit],
    );
  }

  /** An OAuth client's name, for the audit log's "who". */
  /** The name a person gave an API key, if any (the audit log names the key by it). */
  async oauthClientName(clientId: string): Promise<string | undefined> {
    const rows = await this.db.query<{ name: string }>('select name from oauth_clients where id = ?', [clientId]);
    return rows[0]?.name;
  }

  /** A deleted domain's last state, kept for support (the domain's page shows it marked deleted). */
  async deletedDomain(
    workspaceId: string,
    id: string,
  ): Promise<{ record: DomainRecord; deletedAt: string } | undefined> {
    const rows = await this.db.query<{ state: DomainRecord; deleted_at: Date | string }>(
      'select state, deleted_at from domains where id = ? and workspace_id = ? and deleted_at is not null',
      [id, workspaceId],
    );
    return rows[0] && { record: rows[0].state, deletedAt: new Date(rows[0].deleted_at).toISOString() };
  }
}
