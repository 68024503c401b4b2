import { SecretBox } from '@app/crypto';
import { MikroSqlExecutor } from '@app/persistence';
import { IdempotencyStore } from './idempotency.store';

const scope = { workspaceId: 'ws_1', method: 'POST', path: '/v1/domains', key: 'k1' };

/** An executor standing in for PostgreSQL: fails the first `failures` statements as a crash does. */
function executor(failures: number) {
  const statements: { sql: string; params: unknown[] }[] = [];
  const db = {
    query: async (sql: string, params: unknown[]) => {
      statements.push({ sql, params });
      if (statements.length <= failures) throw new Error('Connection terminated unexpectedly');
      return [];
    },
  };
  return { db: db as unknown as MikroSqlExecutor, statements };
}

describe('IdempotencyStore.release', () => {
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  it('frees the key once the database is back when the release meets the outage', async () => {
    const { db, statements } = executor(3);
    const store = new IdempotencyStore(db, {} as SecretBox);
    await store.release(scope, '2026-11-26 09:00:00.123456+00'); // fails, retried in the background
    expect(statements).toHaveLength(1);
    await jest.advanceTimersByTimeAsync(2_000);
    expect(statements).toHaveLength(4);
    // Only its own claim: the delete names the claim's creation time.
    expect(statements.every((s) => s.params.at(-1) === '2026-11-26 09:00:00.123456+00')).toBe(true);
    await jest.advanceTimersByTimeAsync(10_000);
    expect(statements).toHaveLength(4); // done: no more tries after the delete went through
  });

  it('throws what is not an outage', async () => {
    const db = { query: async () => Promise.reject(new Error('syntax error')) } as unknown as MikroSqlExecutor;
    await expect(new IdempotencyStore(db, {} as SecretBox).release(scope, 'x')).rejects.toThrow('syntax error');
  });
});
