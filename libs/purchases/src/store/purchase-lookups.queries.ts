import type { SqlExecutor } from '@app/persistence';

/** The saved card of a workspace (a payment method id), or undefined without one. */
export async function savedCard(db: SqlExecutor, workspaceId: string): Promise<string | undefined> {
  const rows = await db.query<{ pm: string | null }>('select payment_method_id as pm from workspaces where id = ?', [
    workspaceId,
  ]);
  return rows[0]?.pm ?? undefined;
}

/** A live-hostname check: a pending or completed purchase holds the name (the unique index's rule). */
export async function hostnameHeld(db: SqlExecutor, hostname: string): Promise<boolean> {
  const rows = await db.query("select 1 from purchases where hostname = ? and status in ('pending', 'completed')", [
    hostname,
  ]);
  return rows.length > 0;
}

/** Whether the connected Domain a purchase created is still there (not deleted). */
export async function liveDomainExists(db: SqlExecutor, domainId: string): Promise<boolean> {
  const rows = await db.query('select 1 from domains where id = ? and deleted_at is null', [domainId]);
  return rows.length > 0;
}
