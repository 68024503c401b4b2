import type { SqlExecutor } from '@app/persistence';

/** Command records answer retries; a day covers every client's retry window many times over. */
const COMMAND_RETENTION_SQL = `delete from actor_commands where command_id in (
  select command_id from actor_commands where created_at < now() - interval '1 day' limit 10000)`;

/**
 * The replies of applied commands (`actor_commands`), written by the snapshot writer in the same
 * transaction as the snapshot: a retry that reaches a new owner gets the reply of the first attempt.
 */
export async function storedReply(db: SqlExecutor, commandId: string): Promise<{ reply: unknown } | undefined> {
  const rows = await db.query<{ reply: unknown }>('select reply from actor_commands where command_id = ?', [commandId]);
  return rows[0];
}

/** Deletes a batch of command records older than a day (run every few minutes by one node). */
export async function pruneOldCommands(db: SqlExecutor): Promise<void> {
  await db.query(COMMAND_RETENTION_SQL);
}
