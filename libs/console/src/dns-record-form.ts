import { createHash } from 'node:crypto';
import { FormBody, field } from './console-request';

/** One record as the registrar answers it (SPEC 2.7). */
export interface DnsRecordLike {
  type: string;
  name: string;
  value: string;
  ttl?: number;
  priority?: number;
}

/** One row of the editor as the user left it: strings, so a bad number is shown back as typed. */
export interface DnsFormRow {
  type: string;
  name: string;
  value: string;
  ttl: string;
  priority: string;
  remove: boolean;
}

/** The set the form submits, and which form row each submitted record came from. */
export interface ParsedDnsForm {
  rows: DnsFormRow[];
  records: Record<string, unknown>[];
  /** `rowOf[i]` is the form row of `records[i]`. */
  rowOf: number[];
}

/** Blank rows under the current records, for adding. */
export const NEW_ROWS = 3;
/** The editor never has more rows than the API takes records, plus the blank ones. */
const MAX_ROWS = 100 + NEW_ROWS;

/**
 * A version of a record set: the same records in any order give the same version, any change to
 * one gives another. The editor carries the version it read; saving refuses a set changed since.
 */
export function recordSetVersion(records: DnsRecordLike[]): string {
  const lines = records.map((r) => JSON.stringify([r.type, r.name, r.value, r.ttl ?? null, r.priority ?? null])).sort();
  return createHash('sha256').update(lines.join('\n')).digest('base64url').slice(0, 22);
}

export function rowsOf(records: DnsRecordLike[]): DnsFormRow[] {
  return records.map((r) => ({
    type: r.type,
    name: r.name,
    value: r.value,
    ttl: r.ttl === undefined ? '' : String(r.ttl),
    priority: r.priority === undefined ? '' : String(r.priority),
    remove: false,
  }));
}

/** A number field: an integer when it reads as one, else the text as typed (the DTO then names the problem). */
const numberOrText = (text: string): number | string => (/^-?\d+$/.test(text) ? Number(text) : text);

/**
 * Reads the editor's rows (`type.N`, `name.N`, `value.N`, `ttl.N`, `priority.N`, `remove.N`) into the
 * whole record set to PUT: rows marked "remove" and blank rows are left out; an empty TTL takes the
 * API's default.
 */
export function parseDnsForm(body: FormBody | undefined): ParsedDnsForm {
  const count = Math.min(Math.max(Number(field(body, 'rows')) || 0, 0), MAX_ROWS);
  const rows: DnsFormRow[] = [];
  const records: Record<string, unknown>[] = [];
  const rowOf: number[] = [];
  for (let i = 0; i < count; i++) {
    const text = (name: string) => (field(body, `${name}.${i}`) ?? '').trim();
    const row: DnsFormRow = {
      type: text('type'),
      name: text('name'),
      value: text('value'),
      ttl: text('ttl'),
      priority: text('priority'),
      remove: field(body, `remove.${i}`) !== undefined,
    };
    rows.push(row);
    if (row.remove || (!row.name && !row.value)) continue;
    records.push({
      type: row.type,
      name: row.name,
      value: row.value,
      ...(row.ttl ? { ttl: numberOrText(row.ttl) } : {}),
      ...(row.priority || row.type === 'MX' ? { priority: row.priority ? numberOrText(row.priority) : undefined } : {}),
    });
    rowOf.push(i);
  }
  return { rows, records, rowOf };
}

/** Field problems of a refused set (`records.2.value`), by the form row they belong to. */
export function problemsByRow(
  problems: { field: string; problems: string[] }[],
  rowOf: number[],
): { byRow: Map<number, string[]>; other: string[] } {
  const byRow = new Map<number, string[]>();
  const other: string[] = [];
  for (const p of problems) {
    const match = /^records\.(\d+)(?:\.(\w+))?$/.exec(p.field);
    const row = match ? rowOf[Number(match[1])] : undefined;
    if (!match || row === undefined) {
      other.push(`${p.field}: ${p.problems.join(', ')}`);
      continue;
    }
    const list = byRow.get(row) ?? [];
    // "records.2.value must be an IPv4 address" reads "value must be an IPv4 address" beside its row.
    list.push(...p.problems.map((problem) => problem.replace(`records.${match[1]}.`, '')));
    byRow.set(row, list);
  }
  return { byRow, other };
}
