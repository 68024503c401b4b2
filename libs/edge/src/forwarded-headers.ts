import type { IncomingHttpHeaders, OutgoingHttpHeaders } from 'node:http';

/** RFC 9110 7.6.1 connection-specific fields, plus `proxy-connection` and `expect` (the edge answered 100-continue). */
const HOP_BY_HOP = new Set([
  'connection',
  'keep-alive',
  'proxy-authenticate',
  'proxy-authorization',
  'proxy-connection',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
  'http2-settings',
]);

function withoutHopByHop(headers: IncomingHttpHeaders, extra: readonly string[] = []): OutgoingHttpHeaders {
  const named = String(headers.connection ?? '')
    .toLowerCase()
    .split(',')
    .map((token) => token.trim())
    .filter(Boolean);
  const drop = new Set([...named, ...extra]);
  const out: OutgoingHttpHeaders = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value !== undefined && !HOP_BY_HOP.has(name) && !drop.has(name)) out[name] = value;
  }
  return out;
}

export interface ForwardContext {
  /** The address the request came from (the visitor, or a trusted proxy such as Caddy). */
  clientIp: string;
  /** How the visitor reached the edge. */
  proto: 'http' | 'https';
  /** The Host header the visitor sent. */
  originalHost: string;
  /** The Host to send: the original one (`keepHost`) or the origin's. */
  host: string;
  /** A WebSocket handshake: keep `Connection: upgrade` and `Upgrade`. */
  upgrade?: string;
  /** The request came through a trusted proxy: keep the X-Forwarded-Proto/Host it set. */
  trustedProxy?: boolean;
}

/** Request headers for the origin: hop-by-hop fields out, X-Forwarded-For appended, Proto and Host set. */
export function upstreamHeaders(incoming: IncomingHttpHeaders, ctx: ForwardContext): OutgoingHttpHeaders {
  const out = withoutHopByHop(incoming, ['expect']);
  const prior = incoming['x-forwarded-for'];
  out['x-forwarded-for'] = prior ? `${String(prior)}, ${ctx.clientIp}` : ctx.clientIp;
  const keep = (name: string) => (ctx.trustedProxy ? (incoming[name] as string | undefined) : undefined);
  out['x-forwarded-proto'] = keep('x-forwarded-proto') ?? ctx.proto;
  out['x-forwarded-host'] = keep('x-forwarded-host') ?? ctx.originalHost;
  out.host = ctx.host;
  if (ctx.upgrade) {
    out.connection = 'upgrade';
    out.upgrade = ctx.upgrade;
  }
  return out;
}

/** Response headers for the visitor: hop-by-hop fields out. */
export function downstreamHeaders(incoming: IncomingHttpHeaders): OutgoingHttpHeaders {
  return withoutHopByHop(incoming);
}

/** `::ffff:192.0.2.1` -> `192.0.2.1`. */
export function plainAddress(address: string | undefined): string {
  if (!address) return 'unknown';
  return address.startsWith('::ffff:') && address.includes('.') ? address.slice(7) : address;
}
