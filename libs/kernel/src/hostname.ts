/**
 * How two names of one host compare: trimmed, lowercased, without the one trailing dot of a fully
 * qualified name (`Shop.Example.com.` is `shop.example.com`). No validation and no IDNA: callers
 * that accept a name from a customer validate it with hostname-rules' `normalizeHostname`, which
 * starts from this.
 */
export function canonicalHostname(name: string): string {
  return name.trim().toLowerCase().replace(/\.$/, '');
}

/**
 * The other half of a `redirectWww` pair: `www.example.com` for `example.com` and back.
 * Undefined when stripping `www.` would leave a single label.
 */
export function wwwTwin(hostname: string): string | undefined {
  if (!hostname.startsWith('www.')) return `www.${hostname}`;
  const rest = hostname.slice(4);
  return rest.includes('.') ? rest : undefined;
}
