import { APP_CONFIG, AppConfig } from '@app/config';
import { wildcardBase } from '@app/hostname-rules';
import { DomainRepository, toDomainView } from '@app/domains';
import { DomainError, edgeSettingsOf } from '@app/kernel';
import { RecordChecks } from '@app/tools';
import { Inject, Injectable } from '@nestjs/common';
import { ConsolePurchases } from './console-purchases.service';
import { ConsoleTimeline } from './console-timeline.service';
import { ConsoleQueries } from './console.queries';
import { DomainDetail } from './views/domains.page';

/** What a domain's page shows: the domain, its live DNS check and its timeline; a deleted one as it was. */
@Injectable()
export class ConsoleDomainPages {
  constructor(
    private readonly domains: DomainRepository,
    private readonly records: RecordChecks,
    private readonly timeline: ConsoleTimeline,
    private readonly queries: ConsoleQueries,
    private readonly purchases: ConsolePurchases,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /** On a 409: the domain of this workspace already holding the hostname (to link to), if it is here. */
  async heldHere(
    ws: string,
    conflict: DomainError,
    typed: string,
  ): Promise<{ id: string; hostname: string } | undefined> {
    const named = conflict.details?.hostname;
    const hostname = typeof named === 'string' ? named : typed.trim().toLowerCase();
    const holder = await this.domains.holderOf(hostname);
    return holder?.workspaceId === ws ? { id: holder.id, hostname } : undefined;
  }

  async detail(ws: string, id: string): Promise<DomainDetail> {
    const live = await this.domains.get(ws, id).catch(async (error: unknown) => {
      // Support reads a deleted domain's last state and timeline (marked deleted); only a real not-found is one.
      if (!(error instanceof DomainError && error.code === 'not_found')) throw error;
      const gone = await this.queries.deletedDomain(ws, id);
      if (!gone) throw error;
      return gone;
    });
    const { record, deletedAt } = 'deletedAt' in live ? live : { record: live, deletedAt: undefined };
    const domain = toDomainView(record, edgeSettingsOf(this.config));
    const issuer = domain.certificate.issuer ?? this.config.acmeIssuers.map((i) => i.name).join(', ');
    const timeline = await this.timeline.ofDomain(ws, id);
    const dnsHistory = {
      firstCorrectAt: record.machine.firstSeenCorrectDnsAt ?? null,
      wrongChecks: record.machine.consecutiveWrongDnsProbes,
    };
    if (deletedAt)
      return {
        domain,
        check: { error: 'not checked: the domain is deleted' },
        timeline,
        issuer,
        dnsHistory,
        deletedAt,
        takeoverGuard: record.takeoverGuard,
      };
    // The domain's records by their full names (a trailing dot: absolute), the delegation included;
    // a wildcard's are checked from the name under its `*` label.
    const records = domain.dnsRecords.map((r) => ({ type: r.type, name: `${r.name}.`, value: r.value }));
    const check = await this.records
      .single({ hostname: wildcardBase(domain.hostname), records })
      .catch((error: unknown) => ({ error: error instanceof Error ? error.message : String(error) }));
    const managedDns = await this.purchases.managing(ws, id, domain.hostname);
    return { domain, check, timeline, issuer, dnsHistory, managedDns };
  }
}
