import { Entity, PrimaryKey, Property } from '@mikro-orm/core';
import { bool, dateTime, Infer, obj, str } from '@app/kernel';
import { newId } from '@app/persistence';

@Entity({ tableName: 'workspaces' })
export class Workspace {
  @PrimaryKey({ type: 'text' })
  id: string = newId('ws');

  @Property({ type: 'text' })
  name: string;

  /** The saved card (a Stripe payment method id) that purchases charge. */
  @Property({ type: 'text', nullable: true })
  paymentMethodId: string | null = null;

  @Property({ type: 'datetime' })
  createdAt: Date = new Date();

  @Property({ type: 'datetime', onUpdate: () => new Date() })
  updatedAt: Date = new Date();

  constructor(name: string, paymentMethodId?: string) {
    this.name = name;
    this.paymentMethodId = paymentMethodId ?? null;
  }
}

export const workspaceSchema = obj({ id: str('`ws_...`'), name: str(), hasPaymentMethod: bool, createdAt: dateTime() });
export type WorkspaceView = Infer<typeof workspaceSchema>;

export function toWorkspaceView(workspace: Workspace): WorkspaceView {
  return {
    id: workspace.id,
    name: workspace.name,
    hasPaymentMethod: workspace.paymentMethodId !== null,
    createdAt: workspace.createdAt.toISOString(),
  };
}
