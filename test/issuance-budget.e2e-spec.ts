import { IssuanceBudget } from '../libs/certificates/src/issuance-budget.store';
import { IssuanceLimit, LETS_ENCRYPT_LIMITS } from '../libs/certificates/src/model/issuance-limits';
import { MikroSqlExecutor } from '@app/persistence';
import { SqlDatabase, startSqlDatabase } from './support/sql-database';

/** A bucket that refills one token a month: nothing comes back while a test runs. */
const slow = (capacity: number): IssuanceLimit => ({
  name: 'new_orders',
  capacity,
  periodSeconds: capacity * 30 * 86_400,
});

/** The issuance budget's buckets on a real PostgreSQL, under parallel takes from one pool. */
describe('issuance budget in PostgreSQL', () => {
  let sql: SqlDatabase;
  let db: MikroSqlExecutor;
  let budget: IssuanceBudget;
  const tokens = async (key: string) =>
    Number((await db.query<{ tokens: number }>('select tokens from issuance_buckets where key = ?', [key]))[0]?.tokens);
  const dbNow = async () => new Date((await db.query<{ now: Date }>('select now() as now'))[0].now);

  beforeAll(async () => {
    // Migrated from the sources here (not from a template built from dist/): only the schema is needed.
    sql = await startSqlDatabase({ empty: true, providers: [IssuanceBudget] });
    db = sql.db;
    budget = sql.app.get(IssuanceBudget);
  });
  afterAll(() => sql?.close());

  it('grants exactly the capacity to parallel takes of one bucket', async () => {
    const limit = slow(7);
    const answers = await Promise.all(Array.from({ length: 40 }, () => budget.take([{ key: 'one', limit }])));
    expect(answers.filter((a) => a.granted)).toHaveLength(7);
    expect(answers.filter((a) => !a.granted && a.key === 'one')).toHaveLength(33);
    expect(await tokens('one')).toBeCloseTo(0, 3);
  });

  it('takes from all of an order’s buckets or from none, whatever order they are named in', async () => {
    const orders = slow(10);
    const domain = slow(3);
    const pair = (i: number) =>
      i % 2
        ? [
            { key: 'orders', limit: orders },
            { key: 'domain', limit: domain },
          ]
        : [
            { key: 'domain', limit: domain },
            { key: 'orders', limit: orders },
          ];
    const answers = await Promise.all(Array.from({ length: 20 }, (_, i) => budget.take(pair(i))));
    expect(answers.filter((a) => a.granted)).toHaveLength(3);
    // The refused seventeen took nothing from the bucket that had room.
    expect(await tokens('orders')).toBeCloseTo(7, 3);
    expect(answers.find((a) => !a.granted)).toMatchObject({ granted: false, key: 'domain' });
  });

  it("answers a refusal with when the next token arrives, on the database's clock", async () => {
    const limit = LETS_ENCRYPT_LIMITS.new_orders;
    await expect(budget.take([{ key: 'acct', limit, tokens: 300 }])).resolves.toEqual({ granted: true });
    const before = await dbNow();
    const answer = await budget.take([{ key: 'acct', limit }]);
    if (answer.granted) throw new Error('granted a 301st order');
    const wait = answer.retryAt.getTime() - before.getTime();
    expect(wait).toBeGreaterThan(30_000);
    expect(wait).toBeLessThanOrEqual(36_000);
  });

  it('checks without taking; failures are spent after the fact, orders refunded up to the capacity', async () => {
    const limit = LETS_ENCRYPT_LIMITS.failed_validations;
    const request = { key: 'failed_validations:le:shop.example.com', limit };
    await expect(budget.check([request])).resolves.toEqual({ granted: true });
    expect(await tokens(request.key)).toBeNaN(); // a check writes nothing
    await budget.spend(request.key, limit, 4);
    await expect(budget.check([request])).resolves.toEqual({ granted: true });
    await budget.spend(request.key, limit, 4);
    expect(await tokens(request.key)).toBe(0);
    await expect(budget.check([request])).resolves.toMatchObject({ granted: false, key: request.key });
    await budget.refund(request.key, limit, 99);
    expect(await tokens(request.key)).toBe(5);
  });
});
