import { DomainError } from './domain-error';

/**
 * What PostgreSQL says about a value it can never store, by SQLSTATE: class 22 (data exception) and
 * 08P01, the protocol violation a NUL in a statement's text causes (the server cannot read the message).
 * Retrying changes nothing: the request was wrong (400), or a saga step learned a value it cannot
 * record (the saga compensates). Unlike the transient errors (transient-database-error.ts), these never
 * answer 503.
 */
const PROBLEMS: [RegExp, string][] = [
  [/^(22021|22P05|08P01)$/, 'contains a character the database cannot store (such as NUL, U+0000)'],
  [/^22001$/, 'is too long'],
  [/^22003$/, 'is a number out of range'],
  [/^(22007|22008|22009|22015)$/, 'is a date or time out of range'],
  [/^22P02$/, 'is not in a valid format'],
  [/^22/, 'is not a value the database accepts'],
];

export interface DatabaseDataError {
  sqlstate: string;
  /** The column PostgreSQL named, as the API names fields (`customer_reference` -> `customerReference`). */
  field?: string;
  /** What is wrong with the value, completing "the value ..." or "<field> ...". */
  problem: string;
}

const camelCase = (column: string) => column.replace(/_([a-z0-9])/g, (_, c: string) => c.toUpperCase());

/** The data error in `error` (or its causes), if it is one. */
export function databaseDataError(error: unknown): DatabaseDataError | undefined {
  for (let e: unknown = error, depth = 0; e && depth < 4; depth++) {
    const { code, column, cause } = e as { code?: unknown; column?: unknown; cause?: unknown };
    if (typeof code === 'string') {
      const problem = PROBLEMS.find(([pattern]) => pattern.test(code))?.[1];
      if (problem) {
        const field = typeof column === 'string' && column ? camelCase(column) : undefined;
        return { sqlstate: code, field, problem };
      }
    }
    e = cause;
  }
  return undefined;
}

/**
 * A data error as the API's 400 `bad_request`, naming the field where PostgreSQL said which column;
 * undefined for any other error. PostgreSQL's own message is not repeated: it can quote the statement.
 */
export function unstorableValueError(error: unknown): DomainError | undefined {
  const data = databaseDataError(error);
  if (!data) return undefined;
  const field = data.field ?? 'a value';
  const problem = `${field} ${data.problem}`;
  const details = data.field ? { fields: [{ field: data.field, problems: [problem] }] } : undefined;
  return new DomainError('bad_request', `Invalid request: ${problem}`, { ...details, sqlstate: data.sqlstate });
}
