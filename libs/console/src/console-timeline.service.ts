import { Injectable } from '@nestjs/common';
import { ConsoleQueries } from './console.queries';
import { TimelineItem } from './views/domains.page';

const TIMELINE_LIMIT = 50;

/**
 * A domain's history from what the service already records: its events (status changes, monitor
 * verdicts, certificates) with the webhook deliveries of each, and the console actions on it.
 */
@Injectable()
export class ConsoleTimeline {
  constructor(private readonly queries: ConsoleQueries) {}

  async ofDomain(workspaceId: string, domainId: string): Promise<TimelineItem[]> {
    const events = await this.queries.domainEvents(workspaceId, domainId, TIMELINE_LIMIT);
    const audit = await this.queries.auditOfTarget(workspaceId, domainId, TIMELINE_LIMIT);
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
