import type { Configuration, LogContext } from '@mikro-orm/core';
import { PostgreSqlConnection, PostgreSqlDriver } from '@mikro-orm/postgresql';

/**
 * A database error says which statement failed and why, never with what: MikroORM fills the bound
 * values into the SQL it sends, and knex puts that SQL in front of PostgreSQL's message, so a failed
 * write's error (and every log line or stored reason made of it) carried actor state, metadata or a
 * registrant's personal data. Here the filled-in SQL is put back to its placeholders, and a value
 * PostgreSQL quotes in its own message (`invalid input syntax for type uuid: "..."`) is cut.
 * The error's class, code and other fields are kept for whoever classifies it.
 */
function withoutValues(error: unknown, statement: string | undefined, filled: string | undefined): unknown {
  if (!(error instanceof Error)) return error;
  const strip = (text: string) => {
    const out = statement && filled && filled !== statement ? text.split(filled).join(statement) : text;
    return out.replace(QUOTED_VALUE, '$1"[value]"');
  };
  const stack = error.stack;
  error.message = strip(error.message);
  if (stack) error.stack = strip(stack);
  return error;
}

/** PostgreSQL quotes a value after `: ` or `value ` (`value "…" is out of range`); names after other words. */
const QUOTED_VALUE = /(: |value )"(?:[^"]|"")*"/g;

/** Every statement of MikroORM (entities, query builders, SqlExecutor.query) runs through executeQuery. */
class StatementOnlyConnection extends PostgreSqlConnection {
  protected override async executeQuery<T>(query: string, cb: () => Promise<T>, context?: LogContext): Promise<T> {
    try {
      return await super.executeQuery(query, cb, context);
    } catch (error) {
      const statement = context?.query;
      const filled =
        statement && context?.params?.length ? this.platform.formatQuery(statement, context.params) : undefined;
      throw withoutValues(error, statement, filled);
    }
  }
}

/** PostgreSQL through StatementOnlyConnection. */
export class StatementOnlyPostgreSqlDriver extends PostgreSqlDriver {
  constructor(config: Configuration) {
    super(config);
    (this as unknown as { connection: PostgreSqlConnection }).connection = new StatementOnlyConnection(config);
  }
}
