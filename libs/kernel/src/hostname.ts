/**
 * How two names of one host compare: trimmed, lowercased, without the one trailing dot of a fully
 * qualified name (`Shop.Example.com.` is `shop.example.com`). No validation and no IDNA: callers
 * that accept a name from a customer validate it with domain-model's `normalizeHostname`, which
 * starts from this.
 */
export function canonicalHostname(name: string): string {
  return name.trim().toLowerCase().replace(/\.$/, '');
}
