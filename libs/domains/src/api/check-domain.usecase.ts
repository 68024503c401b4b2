import { Bus } from '@app/bus';
import { publishEdgeInvalidation } from '@app/kernel';
import { Injectable } from '@nestjs/common';
import { DomainView } from '../model/domain.view';
import { DomainActors } from './domain-actors.client';
import { DomainViews } from './domain-views.service';

/** POST /v1/domains/{id}/check: the probe now; every edge then re-reads the name, since the status it routes by may have moved. */
@Injectable()
export class CheckDomain {
  constructor(
    private readonly actors: DomainActors,
    private readonly views: DomainViews,
    private readonly bus: Bus,
  ) {}

  async execute(workspaceId: string, id: string): Promise<{ domain: DomainView }> {
    const { domain } = await this.actors.send(id, { type: 'check', workspaceId });
    this.views.written(workspaceId, domain);
    publishEdgeInvalidation(this.bus, domain.hostname);
    return { domain };
  }
}
