/** The fields a request sent: PATCH changes only those, and create keeps the defaults of the rest. */
export function definedOnly<T extends object>(dto: T): Partial<T> {
  return Object.fromEntries(Object.entries(dto).filter(([, value]) => value !== undefined)) as Partial<T>;
}
