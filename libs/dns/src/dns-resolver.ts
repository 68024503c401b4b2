import { described, dictionary, Infer, int, obj, oneOf, oneOfValues, str } from '@app/kernel';
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

/** The record types the diagnostic lookups answer for. */
export const LOOKUP_TYPES = ['A', 'AAAA', 'CNAME', 'TXT', 'NS', 'MX', 'CAA'] as const;
export type LookupType = (typeof LOOKUP_TYPES)[number];

export const lookupRecordSchema = obj(
  {
    type: oneOfValues(...LOOKUP_TYPES),
    value: str('Presentation form: `10 mx.example.com`, `0 issue "letsencrypt.org"`, joined TXT, ...'),
    ttl: int('Seconds (A and AAAA only)'),
    data: described(dictionary(oneOf(str(), int())), 'Structured fields of MX and CAA records'),
  },
  ['ttl', 'data'],
);
export type LookupRecord = Infer<typeof lookupRecordSchema>;

/** `nxdomain`: the name does not exist; `nodata`: it exists without records of the type. */
export interface LookupAnswer {
  status: 'ok' | 'nodata' | 'nxdomain';
  records: LookupRecord[];
}

/** Node reports a CAA record as `{critical, <tag>: value}`. */
const caaAnswers = (records: object[]): CaaAnswer[] =>
  records.flatMap((record) => {
    const { critical, ...rest } = record as Record<string, unknown> & { critical: number };
    return Object.entries(rest).map(([tag, value]) => ({ flags: critical, tag, value: String(value) }));
  });

const bareName = (name: string) => name.replace(/\.$/, '');

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

  /** The servers asked (DNS_RESOLVERS, else the system's), as `ip`, `ip:port` or `[v6]:port`. */
  servers(): string[] {
    return this.resolver.getServers();
  }

  cname(name: string): Promise<string[]> {
    return this.query(name, 'CNAME', () => this.resolver.resolveCname(name));
  }

  /**
   * The name's CNAME targets, or `nxdomain` when the name does not exist at all: then it has no
   * record of any type, nor does any name under it (RFC 8020), and its other lookups can be skipped.
   */
  async cnameOrNxdomain(name: string): Promise<string[] | 'nxdomain'> {
    try {
      return await this.resolver.resolveCname(name);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code ?? 'EUNKNOWN';
      if (code === 'ENOTFOUND') return 'nxdomain';
      if (EMPTY_CODES.has(code)) return [];
      throw new DnsLookupError(name, 'CNAME', code);
    }
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
    return this.query(name, 'CAA', async () => caaAnswers(await this.resolver.resolveCaa(name)));
  }

  /** A and AAAA together (after CNAMEs, as the resolver follows them). */
  async addresses(name: string): Promise<string[]> {
    const [v4, v6] = await Promise.all([this.a(name), this.aaaa(name)]);
    return [...v4, ...v6];
  }

  /**
   * One type at a name with the empty cases told apart (NXDOMAIN vs NODATA), for the diagnostics
   * that show them. Throws DnsLookupError when the resolver cannot answer.
   */
  async lookup(name: string, type: LookupType): Promise<LookupAnswer> {
    try {
      const records = await this.lookupRecords(name, type);
      return { status: records.length ? 'ok' : 'nodata', records };
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code ?? 'EUNKNOWN';
      if (code === 'ENOTFOUND') return { status: 'nxdomain', records: [] };
      if (code === 'ENODATA') return { status: 'nodata', records: [] };
      throw new DnsLookupError(name, type, code);
    }
  }

  private async lookupRecords(name: string, type: LookupType): Promise<LookupRecord[]> {
    const r = this.resolver;
    switch (type) {
      case 'A':
        return (await r.resolve4(name, { ttl: true })).map((a) => ({ type, value: a.address, ttl: a.ttl }));
      case 'AAAA':
        return (await r.resolve6(name, { ttl: true })).map((a) => ({ type, value: a.address, ttl: a.ttl }));
      case 'CNAME':
        return (await r.resolveCname(name)).map((target) => ({ type, value: bareName(target) }));
      case 'NS':
        return (await r.resolveNs(name)).map((host) => ({ type, value: bareName(host) }));
      case 'TXT':
        return (await r.resolveTxt(name)).map((chunks) => ({ type, value: chunks.join('') }));
      case 'MX':
        return (await r.resolveMx(name)).map(({ priority, exchange }) => ({
          type,
          value: `${priority} ${bareName(exchange)}`,
          data: { priority, exchange: bareName(exchange) },
        }));
      case 'CAA':
        return caaAnswers(await r.resolveCaa(name)).map(({ flags, tag, value }) => ({
          type,
          value: `${flags} ${tag} ${JSON.stringify(value)}`,
          data: { flags, tag, value },
        }));
    }
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
