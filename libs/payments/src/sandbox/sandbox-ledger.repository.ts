import type { SqlExecutor } from '@app/persistence';

export interface SandboxChargeRow {
  id: string;
  idempotency_key: string;
  payment_method: string;
  amount_cents: number;
  currency: string;
  status: 'succeeded' | 'failed';
  decline_code: string | null;
}

export interface SandboxRefundRow {
  id: string;
  idempotency_key: string;
  charge_id: string;
  amount_cents: number;
}

export type NewCharge = Omit<SandboxChargeRow, 'idempotency_key'> & {
  idempotencyKey: string;
  description: string;
  metadata: Record<string, string>;
};

const CHARGE = 'id, idempotency_key, payment_method, amount_cents, currency, status, decline_code';

/** The sandbox provider's charges and refunds; a UNIQUE idempotency key makes a replay find the first answer. */
export class SandboxLedger {
  constructor(private readonly db: SqlExecutor) {}

  /** Inserts the charge, or answers the one already recorded under the same key. */
  async recordCharge(charge: NewCharge): Promise<SandboxChargeRow> {
    const inserted = await this.db.query<SandboxChargeRow>(
      `insert into sandbox_charges (id, idempotency_key, payment_method, amount_cents, currency, description, metadata, status, decline_code)
       values (?, ?, ?, ?, ?, ?, ?::jsonb, ?, ?) on conflict (idempotency_key) do nothing returning ${CHARGE}`,
      [
        charge.id,
        charge.idempotencyKey,
        charge.payment_method,
        charge.amount_cents,
        charge.currency,
        charge.description,
        JSON.stringify(charge.metadata),
        charge.status,
        charge.decline_code,
      ],
    );
    if (inserted[0]) return inserted[0];
    const [existing] = await this.db.query<SandboxChargeRow>(
      `select ${CHARGE} from sandbox_charges where idempotency_key = ?`,
      [charge.idempotencyKey],
    );
    if (!existing) throw new Error(`Sandbox charge ${charge.idempotencyKey} vanished after a conflicting insert`);
    return existing;
  }

  async findCharge(id: string): Promise<SandboxChargeRow | undefined> {
    const rows = await this.db.query<SandboxChargeRow>(`select ${CHARGE} from sandbox_charges where id = ?`, [id]);
    return rows[0];
  }

  async findRefundByKey(idempotencyKey: string): Promise<SandboxRefundRow | undefined> {
    const rows = await this.db.query<SandboxRefundRow>(
      'select id, idempotency_key, charge_id, amount_cents from sandbox_refunds where idempotency_key = ?',
      [idempotencyKey],
    );
    return rows[0];
  }

  /** Undefined when a refund already exists for the charge or under the key (the caller re-reads to tell which). */
  async insertRefund(refund: SandboxRefundRow): Promise<SandboxRefundRow | undefined> {
    const rows = await this.db.query<SandboxRefundRow>(
      `insert into sandbox_refunds (id, idempotency_key, charge_id, amount_cents) values (?, ?, ?, ?)
       on conflict do nothing returning id, idempotency_key, charge_id, amount_cents`,
      [refund.id, refund.idempotency_key, refund.charge_id, refund.amount_cents],
    );
    return rows[0];
  }
}
