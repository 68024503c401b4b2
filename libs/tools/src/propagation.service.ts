import { arrayOf, bool, described, Infer, int, nullable, obj, oneOfValues, str } from '@app/kernel';
import { APP_CONFIG, AppConfig, NamedResolver } from '@app/config';
import { DnsLookupError, DnsResolver, LOOKUP_TYPES, LookupType } from '@app/dns';
import { normalizeLookupHostname } from '@app/hostname-rules';
import { Inject, Injectable } from '@nestjs/common';
import { normalizeValue, splitExpected, valueSeen } from './record-values';

export const RESOLVER_STATUSES = ['ok', 'nodata', 'nxdomain', 'timeout', 'error'] as const;

const resolverSchema = obj(
  {
    name: str(),
    address: str(),
    status: oneOfValues(...RESOLVER_STATUSES),
    values: described(arrayOf(str()), 'Normalized and sorted'),
    ttl: int('Lowest TTL seen (A and AAAA only)'),
    matches: described(bool, 'Present when `expected` was given: every expected value is among those seen'),
    error: str(),
    ms: int(),
  },
  ['ttl', 'matches', 'error'],
);
export type ResolverView = Infer<typeof resolverSchema>;

export const propagationResultSchema = obj({
  hostname: str(),
  type: oneOfValues(...LOOKUP_TYPES),
  expected: nullable(arrayOf(str())),
  resolvers: arrayOf(resolverSchema),
  summary: obj({ propagated: int(), total: int(), complete: bool, consistent: bool, message: str() }),
});
export type PropagationResult = Infer<typeof propagationResultSchema>;

/**
 * The propagation tool: the same question to several public resolvers at once (PROPAGATION_RESOLVERS),
 * each with its own short timeout, and whether each one sees the expected values yet.
 */
@Injectable()
export class PropagationTool {
  private readonly resolvers: Array<NamedResolver & { resolver: DnsResolver }>;
  private readonly timeoutMs: number;

  constructor(@Inject(APP_CONFIG) config: AppConfig) {
    this.timeoutMs = config.propagationTimeoutMs;
    this.resolvers = config.propagationResolvers.map((r) => ({
      ...r,
      resolver: new DnsResolver({ servers: [r.address], timeoutMs: config.propagationTimeoutMs, tries: 1 }),
    }));
  }

  async check(input: string, type: LookupType = 'A', expectedInput?: string[]): Promise<PropagationResult> {
    const hostname = normalizeLookupHostname(input);
    const expected = expectedInput?.length
      ? [...new Set((splitExpected(type, expectedInput) as string[]).map((v) => normalizeValue(type, v)))]
      : null;
    const resolvers = await Promise.all(this.resolvers.map((r) => this.ask(r, hostname, type, expected)));
    const propagated = resolvers.filter((r) => (expected ? r.matches : r.status === 'ok')).length;
    const answers = new Set(resolvers.filter((r) => r.status === 'ok').map((r) => r.values.join('\n')));
    const total = resolvers.length;
    const what = expected ? `see ${expected.join(', ')}` : `answer ${type} records`;
    return {
      hostname,
      type,
      expected,
      resolvers,
      summary: {
        propagated,
        total,
        complete: propagated === total,
        consistent: answers.size <= 1 && resolvers.every((r) => r.status === resolvers[0].status),
        message: `${propagated} of ${total} resolvers ${what} for ${hostname}`,
      },
    };
  }

  private async ask(
    r: NamedResolver & { resolver: DnsResolver },
    hostname: string,
    type: LookupType,
    expected: string[] | null,
  ): Promise<ResolverView> {
    const started = Date.now();
    const base = { name: r.name, address: r.address };
    let view: Omit<ResolverView, 'ms' | 'matches'>;
    try {
      const answer = await withDeadline(r.resolver.lookup(hostname, type), this.timeoutMs + 500);
      const ttls = answer.records.flatMap((rec) => (rec.ttl === undefined ? [] : [rec.ttl]));
      view = {
        ...base,
        status: answer.status,
        values: [...new Set(answer.records.map((rec) => normalizeValue(type, rec.value)))].sort(),
        ...(ttls.length ? { ttl: Math.min(...ttls) } : {}),
      };
    } catch (error) {
      if (!(error instanceof DnsLookupError)) throw error;
      const timeout = error.code === 'ETIMEOUT';
      view = { ...base, status: timeout ? 'timeout' : 'error', values: [], error: error.code };
    }
    const matches = expected ? expected.every((e) => valueSeen(type, e, view.values)) : undefined;
    return { ...view, ...(matches === undefined ? {} : { matches }), ms: Date.now() - started };
  }
}

/** c-ares honours its timeout, but a resolver stuck over TCP must not hold the whole answer. */
function withDeadline<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new DnsLookupError('', '', 'ETIMEOUT')), ms);
  });
  return Promise.race([promise, deadline]).finally(() => clearTimeout(timer));
}
