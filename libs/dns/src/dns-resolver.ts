import { Resolver } from 'node:dns/promises';

/** The name exists but has no records of the type (NODATA), or does not exist (NXDOMAIN). */
const EMPTY_CODES = new Set(['ENODATA', 'ENOTFOUND']);

/** The resolver could not answer (timeout, SERVFAIL, refused): not the same as "no records". */
export class DnsLookupError extends Error {
  constructor(
    readonly hostname: string,
    readonly type: string,
    readonly code: string,
  ) {
    super(`DNS lookup of ${type} ${hostname} failed: ${code}`);
    this.name = 'DnsLookupError';
  }
}

export interface CaaAnswer {
  flags: number;
  tag: string;
  value: string;
}

export interface DnsResolverOptions {
  /** `ip`, `ip:port` or `[v6]:port`; empty: the system's resolvers. */
  servers: string[];
  timeoutMs?: number;
  tries?: number;
}

/**
 * DNS queries through the configured resolvers (DNS_RESOLVERS). Empty answers are empty lists;
 * failures to answer throw DnsLookupError, so callers never mistake an outage for a missing record.
 */
export class DnsResolver {
  private readonly resolver: Resolver;

  constructor(options: DnsResolverOptions) {
    this.resolver = new Resolver({ timeout: options.timeoutMs ?? 2_000, tries: options.tries ?? 2 });
    if (options.servers.length) this.resolver.setServers(options.servers);
  }

  cname(name: string): Promise<string[]> {
    return this.query(name, 'CNAME', () => this.resolver.resolveCname(name));
  }

  a(name: string): Promise<string[]> {
    return this.query(name, 'A', () => this.resolver.resolve4(name));
  }

  aaaa(name: string): Promise<string[]> {
    return this.query(name, 'AAAA', () => this.resolver.resolve6(name));
  }

  ns(name: string): Promise<string[]> {
    return this.query(name, 'NS', () => this.resolver.resolveNs(name));
  }

  txt(name: string): Promise<string[]> {
    return this.query(name, 'TXT', async () => (await this.resolver.resolveTxt(name)).map((chunks) => chunks.join('')));
  }

  caa(name: string): Promise<CaaAnswer[]> {
    return this.query(name, 'CAA', async () =>
      (await this.resolver.resolveCaa(name)).flatMap((record) => {
        const { critical, ...rest } = record as unknown as Record<string, unknown> & { critical: number };
        return Object.entries(rest).map(([tag, value]) => ({ flags: critical, tag, value: String(value) }));
      }),
    );
  }

  /** A and AAAA together (after CNAMEs, as the resolver follows them). */
  async addresses(name: string): Promise<string[]> {
    const [v4, v6] = await Promise.all([this.a(name), this.aaaa(name)]);
    return [...v4, ...v6];
  }

  private async query<T>(name: string, type: string, run: () => Promise<T[]>): Promise<T[]> {
    try {
      return await run();
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code ?? 'EUNKNOWN';
      if (EMPTY_CODES.has(code)) return [];
      throw new DnsLookupError(name, type, code);
    }
  }
}
