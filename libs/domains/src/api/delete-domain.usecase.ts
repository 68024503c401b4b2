import { Bus } from '@app/bus';
import { publishEdgeInvalidation } from '@app/kernel';
import { Injectable } from '@nestjs/common';
import { DomainActors } from './domain-actors.client';
import { DomainViews } from './domain-views.service';

/** DELETE /v1/domains/{id}: the actor marks it deleted; every edge forgets the name. */
@Injectable()
export class DeleteDomain {
  constructor(
    private readonly actors: DomainActors,
    private readonly views: DomainViews,
    private readonly bus: Bus,
  ) {}

  async execute(workspaceId: string, id: string): Promise<{ deleted: true; id: string; hostname: string }> {
    const reply = await this.actors.send(id, { type: 'delete', workspaceId });
    this.views.removed(workspaceId, id, reply.hostname);
    publishEdgeInvalidation(this.bus, reply.hostname);
    return reply;
  }
}
