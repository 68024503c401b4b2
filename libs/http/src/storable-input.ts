/**
 * Values the database can never store, refused at the door (the JSON and form body parsers, and the
 * validation pipe for path and query parameters) so that no request reaches PostgreSQL with them:
 *
 * - NUL (U+0000) in any string or key: PostgreSQL's text and jsonb refuse it;
 * - a lone UTF-16 surrogate (`\ud800` in JSON) in any string or key: not a Unicode character (jsonb
 *   refuses it, text would store U+FFFD instead);
 * - JSON nested deeper than {@link MAX_JSON_DEPTH} levels (the recursive validation and hashing of a
 *   body thousands of levels deep overflow the stack);
 * - in fields that name a place (a URL, hostname or e-mail: {@link ADDRESS_FIELDS}, outside free-form
 *   `metadata`), control, invisible and bidi characters (U+200B zero-width space, U+200E/U+200F marks,
 *   U+202A-U+202E embeddings and overrides, U+2066-U+2069 isolates, U+FEFF, tabs, newlines): a URL
 *   parser drops some of them silently, so the stored text would not be the address that was checked.
 *
 * The walk is iterative (no recursion), so any depth the 1 MiB body limit allows is checked safely.
 */
export const MAX_JSON_DEPTH = 64;

/** Keys whose string values (or array items) are URLs, hostnames or e-mail addresses. */
const ADDRESS_FIELDS: ReadonlySet<string> = new Set(['hostname', 'originUrl', 'url', 'email', 'domain', 'nameservers']);

/** Free-form objects: their keys are the customer's own, not field names. */
const FREE_FORM = 'metadata';

const NUL = '\u0000';
const LONE_SURROGATE = /\p{Cs}/u;
/** Controls (Cc), format characters (Cf: zero-width, bidi marks, embeddings, isolates, BOM), U+2028/9. */
const INVISIBLE = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]/u;
/** The same, but tab, CR and LF: an HTML form's textarea lists one address per line. */
const INVISIBLE_IN_FORM = /[^\P{Cc}\t\n\r]|[\p{Cf}\p{Zl}\p{Zp}]/u;

export interface InputProblem {
  /** The field as validation errors name it: `registrant.email`, `records.0.value`, `id`. */
  field: string;
  problem: string;
}

interface Visit {
  value: unknown;
  path: string;
  depth: number;
  /** The nearest named key above (array indexes skipped): decides whether the address rule applies. */
  key: string;
  freeForm: boolean;
}

const codePoint = (char: string) => `U+${(char.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, '0')}`;
const join = (path: string, key: string) => (path ? `${path}.${key}` : key);

/** Where the input comes from: a form's addresses may hold line breaks (one per line in a textarea). */
export type InputSource = 'json' | 'form';

/** What is wrong with one string of `field`, if anything. */
export function stringProblem(
  value: string,
  field: string,
  address = false,
  source: InputSource = 'json',
): string | undefined {
  if (value.includes(NUL)) return `${field} contains a NUL character (U+0000), which cannot be stored`;
  const surrogate = LONE_SURROGATE.exec(value);
  if (surrogate) {
    return `${field} contains a lone UTF-16 surrogate (${codePoint(surrogate[0])}), which is not a Unicode character`;
  }
  const invisible = address ? (source === 'form' ? INVISIBLE_IN_FORM : INVISIBLE).exec(value) : null;
  if (invisible) {
    return `${field} contains an invisible or control character (${codePoint(invisible[0])}): remove it`;
  }
  return undefined;
}

/**
 * The first value of a parsed body or parameter set (`root` names it: `''` for a body or query, the
 * parameter's name for one path parameter) that the database could never store, or undefined.
 */
export function findUnstorable(root: unknown, rootField = '', source: InputSource = 'json'): InputProblem | undefined {
  const stack: Visit[] = [{ value: root, path: rootField, depth: 0, key: rootField, freeForm: false }];
  for (let visit = stack.pop(); visit; visit = stack.pop()) {
    const { value, path, depth, key, freeForm } = visit;
    const field = path || 'body';
    if (typeof value === 'string') {
      const problem = stringProblem(value, field, !freeForm && ADDRESS_FIELDS.has(key), source);
      if (problem) return { field, problem };
      continue;
    }
    if (value === null || typeof value !== 'object') continue;
    if (depth >= MAX_JSON_DEPTH) {
      const top = (!Array.isArray(root) && path.split('.')[0]) || 'body';
      return { field: top, problem: `${top} is nested more than ${MAX_JSON_DEPTH} levels deep` };
    }
    if (Array.isArray(value)) {
      value.forEach((item, i) =>
        stack.push({ value: item, path: join(path, String(i)), depth: depth + 1, key, freeForm }),
      );
      continue;
    }
    for (const [name, item] of Object.entries(value as Record<string, unknown>)) {
      const keyProblem = stringProblem(name, `a key of ${field}`);
      if (keyProblem) return { field, problem: keyProblem };
      const child = join(path, name);
      stack.push({ value: item, path: child, depth: depth + 1, key: name, freeForm: freeForm || name === FREE_FORM });
    }
  }
  return undefined;
}
