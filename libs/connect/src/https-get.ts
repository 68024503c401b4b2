import { checkResolvedAddresses } from '@app/hostname-rules';
import { DnsResolver } from '@app/dns';
import https from 'node:https';
import { isIP, LookupFunction } from 'node:net';

export interface HttpsAnswer {
  status: number;
  body: string;
}

class HttpsGetError extends Error {
  constructor(
    message: string,
    readonly kind: 'blocked' | 'unresolvable' | 'network' | 'timeout' | 'too_large',
  ) {
    super(message);
    this.name = 'HttpsGetError';
  }
}

export interface HttpsGetOptions {
  timeoutMs: number;
  /** Extra trusted CAs (PEM) on top of the system's roots. */
  ca?: string[];
  /** OUTBOUND_ALLOW_CIDRS: private ranges that may be reached anyway (tests, private deployments). */
  allowCidrs: readonly string[];
  maxBytes?: number;
}

/**
 * GETs of URLs named by DNS data a domain owner controls (the `_domainconnect` record and the
 * settings it leads to): HTTPS only, the host resolved through our resolver and refused when any
 * address is private or reserved (SSRF), the connection pinned to those addresses, a hard deadline.
 */
export class HttpsGetter {
  private readonly agent: https.Agent;

  constructor(
    private readonly resolver: DnsResolver,
    private readonly options: HttpsGetOptions,
  ) {
    this.agent = new https.Agent({ keepAlive: false, ca: options.ca?.length ? options.ca : undefined });
  }

  async get(target: string): Promise<HttpsAnswer> {
    const url = new URL(target);
    if (url.protocol !== 'https:') throw new HttpsGetError(`${url.protocol} is not https`, 'blocked');
    const host = url.hostname.replace(/^\[|\]$/g, '');
    const addresses = isIP(host) ? [host] : await this.resolver.addresses(host).catch(() => []);
    if (!addresses.length) throw new HttpsGetError(`${host} does not resolve`, 'unresolvable');
    const check = checkResolvedAddresses(addresses, this.options.allowCidrs);
    if (check.blocked) throw new HttpsGetError(`${host} resolves to a blocked address`, 'blocked');
    return this.request(url, host, addresses);
  }

  private request(url: URL, host: string, addresses: string[]): Promise<HttpsAnswer> {
    const { timeoutMs } = this.options;
    const maxBytes = this.options.maxBytes ?? 64 * 1024;
    const lookup: LookupFunction = (_name, options, callback) => {
      const all = addresses.map((address) => ({ address, family: isIP(address) }));
      if (options.all) (callback as (e: null, a: typeof all) => void)(null, all);
      else callback(null, all[0].address, all[0].family);
    };
    return new Promise((resolve, reject) => {
      const req = https.request({
        method: 'GET',
        hostname: host,
        servername: isIP(host) ? undefined : host,
        port: url.port || 443,
        path: `${url.pathname}${url.search}`,
        headers: { accept: 'application/json' },
        agent: this.agent,
        lookup,
      });
      const timer = setTimeout(
        () => req.destroy(new HttpsGetError(`no answer within ${timeoutMs} ms`, 'timeout')),
        timeoutMs,
      );
      req.once('response', (res) => {
        const chunks: Buffer[] = [];
        let size = 0;
        res.on('data', (chunk: Buffer) => {
          size += chunk.length;
          if (size > maxBytes) req.destroy(new HttpsGetError(`answer larger than ${maxBytes} bytes`, 'too_large'));
          else chunks.push(chunk);
        });
        res.once('end', () => {
          clearTimeout(timer);
          resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') });
        });
        res.once('error', (error) => {
          clearTimeout(timer);
          reject(error instanceof HttpsGetError ? error : new HttpsGetError(error.message, 'network'));
        });
      });
      req.once('error', (error) => {
        clearTimeout(timer);
        reject(error instanceof HttpsGetError ? error : new HttpsGetError(error.message, 'network'));
      });
      req.end();
    });
  }
}
