import { isTransientDatabaseError } from './transient-database-error';

describe('isTransientDatabaseError', () => {
  it.each([
    ['a refused connection', Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' })],
    ['a crash shutdown', Object.assign(new Error('terminating connection'), { code: '57P02' })],
    ['a server starting up', Object.assign(new Error('the database system is starting up'), { code: '57P03' })],
    ['a dropped connection', new Error('Connection terminated unexpectedly')],
    ['a full pool', new Error('Knex: Timeout acquiring a connection. The pool is probably full.')],
    ['a wrapped cause', new Error('query failed', { cause: Object.assign(new Error('x'), { code: '08006' }) })],
  ])('retries %s', (_, error) => {
    expect(isTransientDatabaseError(error)).toBe(true);
  });

  it.each([
    ['a unique violation', Object.assign(new Error('duplicate key'), { code: '23505' })],
    ['a syntax error', Object.assign(new Error('syntax error'), { code: '42601' })],
    // A NUL in a statement's text: the server cannot read the message, and never will.
    ['a protocol violation', Object.assign(new Error('invalid message format'), { code: '08P01' })],
    ['a value out of range', Object.assign(new Error('date/time field value out of range'), { code: '22008' })],
    ['a plain bug', new TypeError('cannot read properties of undefined')],
    ['nothing', undefined],
  ])('does not retry %s', (_, error) => {
    expect(isTransientDatabaseError(error)).toBe(false);
  });
});
