const HOSTNAME = /^(?=.{1,253}$)[a-z0-9_](?:[a-z0-9_-]{0,61}[a-z0-9])?(?:\.[a-z0-9_](?:[a-z0-9_-]{0,61}[a-z0-9])?)+$/;

/**
 * The hostname a Host header or an SNI name asks for: trimmed, lowercased, without the port and
 * one trailing dot. Undefined for anything that cannot be a connected hostname (IPv6 literals,
 * single labels, bad characters, a port that is not 1-65535), which the edge answers with 400.
 */
export function parseHost(value: string | undefined): string | undefined {
  if (!value) return undefined;
  let host = value.trim().toLowerCase();
  const colon = host.indexOf(':');
  if (colon !== -1) {
    const port = host.slice(colon + 1);
    // A port is 1-65535 (RFC 9110 7.2 allows an empty one, which no client sends): `:99999` is refused.
    if (!/^\d{1,5}$/.test(port) || Number(port) < 1 || Number(port) > 65_535) return undefined;
    host = host.slice(0, colon);
  }
  if (host.endsWith('.')) host = host.slice(0, -1);
  return HOSTNAME.test(host) ? host : undefined;
}
