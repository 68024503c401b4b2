import http from 'node:http';
import https from 'node:https';
import { LookupFunction, isIP } from 'node:net';

export class PostTimeoutError extends Error {
  constructor(ms: number) {
    super(`no response within ${ms} ms`);
    this.name = 'PostTimeoutError';
  }
}

export interface PostTarget {
  url: URL;
  /** The URL's host without brackets: the TLS name and Host header. */
  host: string;
  /** Addresses already checked against the SSRF rules: the only ones connected to. */
  addresses: string[];
}

export interface PostAnswer {
  statusCode: number;
  /** The first bytes of the response body (for the recorded error). */
  snippet: string;
}

const SNIPPET_BYTES = 512;
// Free sockets close before the usual 5 s keep-alive of Node and other servers.
const agents = {
  'http:': new http.Agent({ keepAlive: true, timeout: 4_000, maxFreeSockets: 64 }),
  'https:': new https.Agent({ keepAlive: true, timeout: 4_000, maxFreeSockets: 64 }),
};

/** Resolves the host to the checked addresses only: no second, unchecked DNS answer (rebinding). */
const pinned =
  (addresses: string[]): LookupFunction =>
  (_hostname, options, callback) => {
    const all = addresses.map((address) => ({ address, family: isIP(address) }));
    if (options.all) (callback as (e: null, a: typeof all) => void)(null, all);
    else callback(null, all[0].address, all[0].family);
  };

/**
 * One POST with a hard deadline over connect, request and response. A keep-alive socket the server
 * closed just as it was reused (ECONNRESET) is retried once on a fresh connection.
 */
export function post(
  target: PostTarget,
  body: Buffer,
  headers: Record<string, string>,
  timeoutMs: number,
  retryReused = true,
): Promise<PostAnswer> {
  return new Promise<PostAnswer>((resolve, reject) => {
    const { url } = target;
    const transport = url.protocol === 'https:' ? https : http;
    const req = transport.request({
      method: 'POST',
      protocol: url.protocol,
      hostname: target.host,
      port: url.port || undefined,
      path: `${url.pathname}${url.search}`,
      headers: { ...headers, 'content-length': String(body.length) },
      agent: agents[url.protocol as keyof typeof agents],
      lookup: pinned(target.addresses),
    });
    let settled = false;
    let timedOut = false;
    const finish = (error: Error | null, answer?: PostAnswer) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      // After the deadline every failure (a body cut short included) is the timeout.
      if (error) reject(timedOut ? new PostTimeoutError(timeoutMs) : error);
      else resolve(answer as PostAnswer);
    };
    const timer = setTimeout(() => {
      timedOut = true;
      req.destroy(new PostTimeoutError(timeoutMs));
    }, timeoutMs);
    req.once('response', (res) => {
      const chunks: Buffer[] = [];
      let size = 0;
      res.on('data', (chunk: Buffer) => {
        if (size < SNIPPET_BYTES) chunks.push(chunk);
        size += chunk.length;
      });
      const answer = () => ({
        statusCode: res.statusCode ?? 0,
        snippet: Buffer.concat(chunks).subarray(0, SNIPPET_BYTES).toString('utf8'),
      });
      res.once('end', () => finish(null, answer()));
      res.once('error', (error) => finish(error));
      res.once('close', () => finish(res.complete ? null : new Error('the response ended early'), answer()));
    });
    req.once('error', (error: NodeJS.ErrnoException) => {
      if (!settled && retryReused && req.reusedSocket && error.code === 'ECONNRESET') {
        settled = true;
        clearTimeout(timer);
        post(target, body, headers, timeoutMs, false).then(resolve, reject);
        return;
      }
      finish(error);
    });
    req.end(body);
  });
}
