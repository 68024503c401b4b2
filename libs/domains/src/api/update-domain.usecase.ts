import { Bus } from '@app/bus';
import { DomainError, publishEdgeInvalidation } from '@app/kernel';
import { Injectable } from '@nestjs/common';
import { DomainView } from '../model/domain.view';
import { DomainActors } from './domain-actors.client';
import { DomainPreflight } from './domain-preflight.service';
import { DomainProjectCheck } from './domain-project.check';
import { DomainViews } from './domain-views.service';
import { definedOnly } from './dto/defined-only';
import { UpdateDomainDto } from './dto/update-domain.dto';

/** PATCH /v1/domains/{id}: a new origin passes the SSRF preflight here, before the actor takes it. */
@Injectable()
export class UpdateDomain {
  constructor(
    private readonly actors: DomainActors,
    private readonly preflight: DomainPreflight,
    private readonly projects: DomainProjectCheck,
    private readonly views: DomainViews,
    private readonly bus: Bus,
  ) {}

  async execute(workspaceId: string, id: string, dto: UpdateDomainDto): Promise<{ domain: DomainView }> {
    const changes = definedOnly(dto);
    if (!Object.keys(changes).length) {
      throw new DomainError(
        'bad_request',
        'Send at least one of originUrl, metadata, mode, keepHost, redirectWww, redirectStatus, projectId',
      );
    }
    await this.projects.check(workspaceId, changes.projectId);
    if (changes.originUrl !== undefined) {
      changes.originUrl = changes.originUrl.trim();
      await this.preflight.origin(changes.originUrl);
    }
    const { domain } = await this.actors.send(id, { type: 'patch', workspaceId, changes });
    this.views.written(workspaceId, domain);
    publishEdgeInvalidation(this.bus, domain.hostname);
    return { domain };
  }
}
