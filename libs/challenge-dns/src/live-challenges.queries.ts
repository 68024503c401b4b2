import type { SqlExecutor } from '@app/persistence';
import type { LiveValue } from './model/zone-answer';

interface Row {
  name: string;
  value: string;
  expires_at: Date | string;
}

/** Every unexpired DNS-01 value, by lowercase name (a wildcard and its base name may share one). */
export async function liveChallenges(db: SqlExecutor): Promise<Map<string, LiveValue[]>> {
  const rows = await db.query<Row>('select name, value, expires_at from acme_dns_challenges where expires_at > now()');
  const byName = new Map<string, LiveValue[]>();
  for (const row of rows) {
    const name = row.name.toLowerCase();
    const values = byName.get(name) ?? [];
    values.push({ value: row.value, expiresAt: new Date(row.expires_at).getTime() });
    byName.set(name, values);
  }
  return byName;
}
