/**
 * Raw queries through MikroORM hand timestamptz columns back as text (`2026-11-21 10:00:00.123456+00`);
 * these turn the named columns into Dates (nulls stay null).
 */
export function toDate(value: unknown): Date {
  return value instanceof Date ? value : new Date(String(value));
}

export function withDates<T extends object>(row: T, keys: readonly (keyof T)[]): T {
  const out = { ...row } as Record<keyof T, unknown>;
  for (const key of keys) if (out[key] !== null && out[key] !== undefined) out[key] = toDate(out[key]);
  return out as T;
}
