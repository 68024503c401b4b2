import { EntityManager } from '@mikro-orm/postgresql';
import { Bus } from '@app/bus';
import { BoundedCache, notFound } from '@app/kernel';
import { PgDirect } from '@app/persistence';
import { Injectable, OnModuleDestroy, OnModuleInit } from '@nestjs/common';
import { Workspace } from './workspace.entity';

/**
 * How long a workspace's saved card is reused by the creations that follow it (every domain creation
 * asks). A change made through any replica is announced on the bus and evicts it everywhere at once;
 * only a lost message leaves a removed card usable here for up to this long. "No card" is never kept,
 * so a card just added counts at once.
 */
const CARD_REUSE_MS = 30_000;
const CARD_REUSE_ENTRIES = 10_000;
const CARD_CHANGED_SUBJECT = 'control.workspaces.card_changed';

@Injectable()
export class WorkspaceRepository implements OnModuleInit, OnModuleDestroy {
  private readonly cards = new BoundedCache<string | null>({ maxEntries: CARD_REUSE_ENTRIES, ttlMs: CARD_REUSE_MS });
  private unsubscribe?: () => void;

  constructor(
    private readonly em: EntityManager,
    private readonly pg: PgDirect,
    private readonly bus: Bus,
  ) {}

  onModuleInit(): void {
    this.unsubscribe = this.bus.subscribe(CARD_CHANGED_SUBJECT, (payload) => {
      const { workspaceId } = payload as { workspaceId?: string };
      if (workspaceId) this.cards.delete(workspaceId);
    });
  }

  onModuleDestroy(): void {
    this.unsubscribe?.();
  }

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

  /** The saved card of a workspace (null: none), asked on every domain creation: reused while fresh. */
  paymentMethodOf(id: string): Promise<string | null> {
    return this.cards.getOrLoad(
      id,
      () => this.readPaymentMethod(id),
      (card) => (card ? CARD_REUSE_MS : 0),
    );
  }

  private async readPaymentMethod(id: string): Promise<string | null> {
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
    this.cards.delete(id);
    this.bus.publish(CARD_CHANGED_SUBJECT, { workspaceId: id });
    return workspace;
  }
}
