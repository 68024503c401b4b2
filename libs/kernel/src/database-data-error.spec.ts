import { DomainError } from './domain-error';
import { databaseDataError, unstorableValueError } from './database-data-error';
import { isTransientDatabaseError } from './transient-database-error';

const pgError = (code: string, extra: Record<string, unknown> = {}) =>
  Object.assign(new Error(`pg ${code}`), { code, ...extra });

describe('databaseDataError', () => {
  it.each([
    ['invalid byte sequence (a NUL bound as text)', '22021', /character the database cannot store/],
    ['untranslatable character (a NUL in jsonb)', '22P05', /character the database cannot store/],
    ['a protocol violation (a NUL in the statement text)', '08P01', /character the database cannot store/],
    ['string too long', '22001', /too long/],
    ['numeric out of range', '22003', /number out of range/],
    ['datetime out of range', '22008', /date or time out of range/],
    ['time zone displacement out of range (year 275760)', '22009', /date or time out of range/],
    ['invalid text representation', '22P02', /valid format/],
    ['any other data exception', '22012', /not a value the database accepts/],
  ])('classifies %s as a value that can never be stored, not an outage', (_, code, problem) => {
    const error = pgError(code);
    expect(databaseDataError(error)).toEqual({
      sqlstate: code,
      field: undefined,
      problem: expect.stringMatching(problem),
    });
    expect(isTransientDatabaseError(error)).toBe(false);
  });

  it('finds it in a cause and names the column as the API names fields', () => {
    const error = new Error('write failed', { cause: pgError('22001', { column: 'customer_reference' }) });
    expect(databaseDataError(error)).toMatchObject({ field: 'customerReference', sqlstate: '22001' });
    const answer = unstorableValueError(error);
    expect(answer).toBeInstanceOf(DomainError);
    expect(answer).toMatchObject({
      code: 'bad_request',
      message: 'Invalid request: customerReference is too long',
      details: {
        fields: [{ field: 'customerReference', problems: ['customerReference is too long'] }],
        sqlstate: '22001',
      },
    });
  });

  it.each([
    ['a refused connection', pgError('ECONNREFUSED')],
    ['an admin shutdown', pgError('57P01')],
    ['too many connections', pgError('53300')],
    ['a unique violation', pgError('23505')],
    ['a syntax error', pgError('42601')],
    ['nothing', undefined],
  ])('leaves %s alone', (_, error) => {
    expect(databaseDataError(error)).toBeUndefined();
    expect(unstorableValueError(error)).toBeUndefined();
  });
});
