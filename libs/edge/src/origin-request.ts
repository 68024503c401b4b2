import { OriginUrlError, ParsedOrigin, parseOriginUrl } from '@app/hostname-rules';
import type { ClientRequest, IncomingMessage, RequestOptions } from 'node:http';
import { plainAddress, upstreamHeaders } from './forwarded-headers';
import { PageName } from './pages';
import { RequestTarget, originPath } from './request-target';
import { OriginBlockedError, SafeLookup, checkLiteral } from './safe-lookup';

/** How the request reached the edge. */
export interface Arrival {
  scheme: 'http' | 'https';
  /** Through a trusted proxy (Caddy) whose X-Forwarded-* headers are kept. */
  trustedProxy: boolean;
}

export interface ProxyDecision {
  originUrl: string;
  target: RequestTarget;
  keepHost: boolean;
}

export interface OriginRequest {
  secure: boolean;
  options: RequestOptions;
}

/** The origin did not connect, or went silent, within the edge's timeouts. */
class OriginTimeoutError extends Error {
  constructor(readonly phase: 'connect' | 'idle') {
    super(`Origin ${phase} timeout`);
    this.name = 'OriginTimeoutError';
  }
}

/**
 * The request to send to the origin: path joined with the origin URL's, forwarding headers, the
 * SSRF-checking lookup, and SNI (and certificate check) against the origin's own name even when
 * `keepHost` forwards the visitor's Host. Throws OriginBlockedError for an origin that is refused
 * without any lookup (internal names, blocked literal addresses).
 */
/** Parsed origins and their literal-address verdicts per allow-list: neither depends on DNS, so they are kept. */
const parsedOrigins = new Map<string, ParsedOrigin | OriginBlockedError>();

function parseChecked(originUrl: string, allowCidrs: readonly string[]): ParsedOrigin {
  const key = `${allowCidrs.join(',')} ${originUrl}`;
  let parsed = parsedOrigins.get(key);
  if (!parsed) {
    try {
      parsed = parseOriginUrl(originUrl);
      if (parsed.literalIp) checkLiteral(parsed.literalIp, allowCidrs);
    } catch (error) {
      if (!(error instanceof OriginUrlError || error instanceof OriginBlockedError)) throw error;
      parsed = error instanceof OriginBlockedError ? error : new OriginBlockedError(originUrl, error.message);
    }
    if (parsedOrigins.size >= 10_000) parsedOrigins.clear();
    parsedOrigins.set(key, parsed);
  }
  if (parsed instanceof OriginBlockedError) throw parsed;
  return parsed;
}

export function originRequest(
  req: IncomingMessage,
  decision: ProxyDecision,
  arrival: Arrival,
  deps: { lookup: SafeLookup; allowCidrs: readonly string[] },
  upgrade?: string,
): OriginRequest {
  const origin = parseChecked(decision.originUrl, deps.allowCidrs);
  const secure = origin.url.protocol === 'https:';
  const originalHost = req.headers.host ?? '';
  const headers = upstreamHeaders(req.headers, {
    clientIp: plainAddress(req.socket.remoteAddress),
    proto: arrival.scheme,
    originalHost,
    host: decision.keepHost ? originalHost : origin.url.host,
    upgrade,
    trustedProxy: arrival.trustedProxy,
  });
  return {
    secure,
    options: {
      hostname: origin.host,
      port: Number(origin.url.port) || (secure ? 443 : 80),
      method: req.method,
      path: originPath(origin.url, decision.target),
      headers,
      lookup: deps.lookup,
      ...(secure && !origin.literalIp ? { servername: origin.host } : {}),
    },
  };
}

/** Connect timeout (DNS and TCP) on new sockets, idle timeout for the whole exchange. */
export function armTimeouts(upstream: ClientRequest, connectMs: number, idleMs: number): void {
  upstream.once('socket', (socket) => {
    if (!socket.connecting) return;
    const timer = setTimeout(() => upstream.destroy(new OriginTimeoutError('connect')), connectMs);
    socket.once('connect', () => clearTimeout(timer));
    upstream.once('close', () => clearTimeout(timer));
  });
  if (idleMs > 0) upstream.setTimeout(idleMs, () => upstream.destroy(new OriginTimeoutError('idle')));
}

/** The page a visitor sees for a failed origin request, and the outcome recorded. */
export function failure(error: unknown): { page: PageName; outcome: string } {
  if (error instanceof OriginBlockedError) return { page: 'origin_unreachable', outcome: 'origin_blocked' };
  if (error instanceof OriginTimeoutError) return { page: 'origin_timeout', outcome: 'origin_timeout' };
  return { page: 'origin_unreachable', outcome: 'origin_unreachable' };
}
