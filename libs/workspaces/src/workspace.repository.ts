import { EntityManager } from '@mikro-orm/postgresql';
import { notFound } from '@app/http';
import { Injectable } from '@nestjs/common';
import { Workspace } from './workspace.entity';

@Injectable()
export class WorkspaceRepository {
  constructor(private readonly em: EntityManager) {}

  async create(name: string, paymentMethodId?: string): Promise<Workspace> {
    const workspace = new Workspace(name, paymentMethodId);
    await this.em.persistAndFlush(workspace);
    return workspace;
  }

  async get(id: string): Promise<Workspace> {
    const workspace = await this.em.findOne(Workspace, { id });
    if (!workspace) throw notFound('Workspace');
    return workspace;
  }

  async setPaymentMethod(id: string, paymentMethodId: string | null): Promise<Workspace> {
    const workspace = await this.get(id);
    workspace.paymentMethodId = paymentMethodId;
    await this.em.flush();
    return workspace;
  }
}
