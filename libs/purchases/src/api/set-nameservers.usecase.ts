import { DomainError } from '@app/kernel';
import { Injectable } from '@nestjs/common';
import { PurchaseActors } from './purchase-actors.client';
import { normalizeNameserver } from './purchase-input';

/** PUT /v1/domain-purchases/{id}/nameservers: an empty list restores the registrar's own. */
@Injectable()
export class SetNameservers {
  constructor(private readonly actors: PurchaseActors) {}

  async execute(workspaceId: string, id: string, input: string[]) {
    const nameservers = input.map((ns, i) => {
      try {
        return normalizeNameserver(ns);
      } catch (error) {
        const field = `nameservers.${i}`;
        const problem = error instanceof Error ? error.message : 'invalid';
        throw new DomainError('bad_request', `${field}: ${problem}`, { fields: [{ field, problems: [problem] }] });
      }
    });
    const reply = await this.actors.send(id, { type: 'set_nameservers', workspaceId, nameservers });
    return { hostname: reply.purchase.hostname, nameservers: reply.nameservers };
  }
}
