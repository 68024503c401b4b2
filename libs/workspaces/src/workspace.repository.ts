import { EntityManager } from '@mikro-orm/postgresql';
import { notFound } from '@app/kernel';
import { PgDirect } from '@app/persistence';
import { Injectable } from '@nestjs/common';
import { Workspace } from './workspace.entity';

@Injectable()
export class WorkspaceRepository {
  constructor(
    private readonly em: EntityManager,
    private readonly pg: PgDirect,
  ) {}

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

  /** The saved card of a workspace (null: none), read on every domain creation: one prepared statement. */
  async paymentMethodOf(id: string): Promise<string | null> {
    const [row] = await this.pg.query<{ payment_method_id: string | null }>(
      'workspaces.payment_method',
      'select payment_method_id from workspaces where id = $1',
      [id],
    );
    if (!row) throw notFound('Workspace');
    return row.payment_method_id;
  }

  async setPaymentMethod(id: string, paymentMethodId: string | null): Promise<Workspace> {
    const workspace = await this.get(id);
    workspace.paymentMethodId = paymentMethodId;
    await this.em.flush();
    return workspace;
  }
}
