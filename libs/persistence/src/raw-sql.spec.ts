import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import { RAW_SQL, RawSqlKind } from './raw-sql';

const ROOT = join(__dirname, '../../..');

/** SQL text as this codebase writes it (lower case), a call on a database executor, or a sql`` fragment. */
const SQL_TEXT =
  /[`'"]\s*(select\s|insert\s+into\s|update\s+[a-z_]+(\s+[a-z])?\s+set\s|delete\s+from\s|with\s+[a-z_]+\s+as\s*\()/;
const EXECUTOR_CALL =
  /\b(db|tx|pg|lock|connection|getConnection\(\))\s*\.\s*(query|execute)\s*[<(]|\bsql\s*`|\bknex\s*\.\s*raw\s*\(/;
const STORE_NAME = /(\.repository|\.store|\.queries|\.reads|writer)\.ts$/;
const NOT_A_STORE: RawSqlKind[] = ['infrastructure'];

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'node_modules' ? [] : sourceFiles(path);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.spec.ts') ? [relative(ROOT, path)] : [];
  });
}

const runsSql = (file: string) => {
  const text = readFileSync(join(ROOT, file), 'utf8');
  return SQL_TEXT.test(text) || EXECUTOR_CALL.test(text);
};
const entryOf = (file: string) => Object.keys(RAW_SQL).find((p) => (p.endsWith('/') ? file.startsWith(p) : p === file));

describe('raw SQL stays in the files named in raw-sql.ts', () => {
  const files = ['libs', 'apps'].flatMap((dir) => sourceFiles(join(ROOT, dir)));

  it('no other file of libs/ or apps/ runs SQL (use a MikroORM repository, or name the file and why)', () => {
    expect(files.filter((file) => runsSql(file) && !entryOf(file))).toEqual([]);
  });

  it('every file named still exists and runs SQL', () => {
    const stale = Object.keys(RAW_SQL).filter((path) =>
      path.endsWith('/') ? !existsSync(join(ROOT, path)) : !existsSync(join(ROOT, path)) || !runsSql(path),
    );
    expect(stale).toEqual([]);
  });

  it('SQL lives in stores: repositories, stores, queries and writers by name', () => {
    const misplaced = Object.entries(RAW_SQL)
      .filter(([path, use]) => !NOT_A_STORE.includes(use.kind) && !STORE_NAME.test(path))
      .map(([path]) => path);
    expect(misplaced).toEqual([]);
  });

  it('the detector sees SQL in its usual shapes and not in prose', () => {
    const sees = (text: string) => SQL_TEXT.test(text) || EXECUTOR_CALL.test(text);
    expect(sees("await this.db.query('delete from t where id = ?', [id])")).toBe(true);
    expect(sees('`update webhook_deliveries d set status = v.status`')).toBe(true);
    expect(sees('this.db.query<Row>(SOME_SQL)')).toBe(true);
    expect(sees('em.find(User, { [sql`lower(email)`]: email })')).toBe(true);
    expect(sees("await this.em.getConnection().execute('vacuum')")).toBe(true);
    expect(sees("'Select {domain}, then DNS > DNS Settings.'")).toBe(false);
    expect(sees("this.query(name, 'CNAME', () => resolve(name))")).toBe(false);
  });
});
