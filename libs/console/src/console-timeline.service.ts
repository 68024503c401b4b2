import { MikroSqlExecutor } from '@app/persistence';
import { Injectable } from '@nestjs/common';
import { TimelineItem } from './views/domains.page';

const TIMELINE_LIMIT = 50;

interface EventRow {
  id: string;
  type: string;
  data: { domain?: { status?: string; monitorStatus?: string; monitorMessage?: string }; previousStatus?: string };
  created_at: Date | string;
  delivered: string;
  dead: string;
  pending: string;
}

/**
 * A domain's history from what the service already records: its events (status changes, monitor
 * verdicts, certificates) with the webhook deliveries of each, and the console actions on it.
 */
@Injectable()
export class ConsoleTimeline {
  constructor(private readonly db: MikroSqlExecutor) {}

  async ofDomain(workspaceId: string, domainId: string): Promise<TimelineItem[]> {
    const events = await this.db.query<EventRow>(
      `select e.id, e.type, e.data, e.created_at,
         count(d.id) filter (where d.status = 'delivered') as delivered,
         count(d.id) filter (where d.status = 'dead_lettered') as dead,
         count(d.id) filter (where d.status = 'pending') as pending
       from outbox_events e left join webhook_deliveries d on d.event_id = e.id
       where e.aggregate_id = ? and e.workspace_id = ?
       group by e.id order by e.created_at desc limit ?`,
      [domainId, workspaceId, TIMELINE_LIMIT],
    );
    const audit = await this.db.query<{ actor: string; action: string; created_at: Date | string }>(
      `select actor, action, created_at from console_audit where workspace_id = ? and target = ?
       order by created_at desc limit ?`,
      [workspaceId, domainId, TIMELINE_LIMIT],
    );
    const items: TimelineItem[] = [
      ...events.map((e) => {
        const d = e.data.domain;
        const webhooks = [
          Number(e.delivered) && `${e.delivered} delivered`,
          Number(e.pending) && `${e.pending} pending`,
          Number(e.dead) && `${e.dead} dead-lettered`,
        ].filter(Boolean);
        const detail = [
          d?.monitorMessage,
          e.data.previousStatus && d?.status && e.data.previousStatus !== d.status
            ? `${e.data.previousStatus} → ${d.status}`
            : undefined,
          webhooks.length ? `webhooks: ${webhooks.join(', ')}` : 'no webhook endpoint subscribed',
        ].filter(Boolean);
        return {
          at: new Date(e.created_at).toISOString(),
          title: e.type,
          detail: detail.join(' · '),
          tone: e.type === 'domain.monitor_updated' ? d?.monitorStatus : d?.status,
        };
      }),
      ...audit.map((a) => ({ at: new Date(a.created_at).toISOString(), title: `${a.action} by ${a.actor}` })),
    ];
    return items.sort((a, b) => b.at.localeCompare(a.at)).slice(0, TIMELINE_LIMIT);
  }
}
