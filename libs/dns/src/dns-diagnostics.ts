import { DnsAnswers, DnsProblem, checkResolvedAddresses, classifyDnsAnswers, EdgeAddresses } from '@app/hostname-rules';
import { getDomain } from 'tldts';
import { DnsLookupError, DnsResolver } from './dns-resolver';
import { DnsServerAddress, WireAnswer, parseServerAddress, wireQuery } from './dns-wire';

export interface DnsDiagnosticsOptions {
  edge: EdgeAddresses;
  /** Port of authoritative nameservers (53; tests point it at a loopback server). */
  authoritativePort: number;
  /** OUTBOUND_ALLOW_CIDRS: nameservers at private addresses are asked only when exempted. */
  allowCidrs: readonly string[];
  /** One question's wait for its answer (2 s). */
  timeoutMs?: number;
  /**
   * The longest one diagnosis (brokenDelegation, staleCache) may take, whatever the nameservers do
   * (4 s): past it the probe keeps its plain verdict, so a check or a monitor pass stays prompt.
   */
  budgetMs?: number;
}

interface Zone {
  zone: string;
  nameservers: string[];
}

/** Zone lookups are shared by every hostname of a zone for a minute. */
const ZONE_CACHE_MS = 60_000;
const MAX_NAMESERVERS = 3;
/** Nameserver addresses asked at once (the first that answers settles it). */
const MAX_SERVERS = 6;
const DEFAULT_BUDGET_MS = 4_000;

/** The first of `attempts` to give a value; undefined once all gave none (failures count as none). */
function firstAnswer<T>(attempts: Promise<T | undefined>[]): Promise<T | undefined> {
  return new Promise((resolve) => {
    let left = attempts.length;
    if (!left) return resolve(undefined);
    for (const attempt of attempts)
      attempt
        .then(
          (value) => value !== undefined && resolve(value),
          () => undefined,
        )
        .finally(() => --left === 0 && resolve(undefined));
  });
}

/**
 * The questions behind the precise DNS messages that one resolver answer cannot
 * settle: is a SERVFAIL name delegated at all (so DNSSEC or the nameservers are broken), and do the
 * zone's authoritative servers already answer right while resolvers still serve a cached old answer.
 * Only asked when a probe found something wrong, so correct domains cost nothing more.
 */
export class DnsDiagnostics {
  private readonly zones = new Map<string, { zone: Zone | undefined; at: number }>();

  constructor(
    private readonly resolver: DnsResolver,
    private readonly options: DnsDiagnosticsOptions,
  ) {}

  /**
   * The resolvers answered SERVFAIL for `hostname`: a broken delegation when a parent of the name
   * (up to its registrable domain) is delegated, i.e. has NS records; undefined when nothing above
   * answers either, which looks like a resolver outage and says nothing about the customer.
   * Undefined too when the answer takes longer than the budget.
   */
  brokenDelegation(hostname: string): Promise<DnsProblem | undefined> {
    return this.withinBudget(this.findBrokenDelegation(hostname));
  }

  /**
   * The resolvers answered `seen` (wrong); when the zone's own nameservers already answer right, the
   * resolvers serve an old cached answer: names it with the TTL it has left. Undefined when they do
   * not, or do not answer within the budget (nameservers behind a filter on port 53, or gone).
   */
  staleCache(hostname: string, seen: DnsAnswers, now = new Date()): Promise<DnsProblem | undefined> {
    return this.withinBudget(this.findStaleCache(hostname, seen, now));
  }

  /**
   * A diagnosis only refines a verdict the probe already has: it must never hold the probe (a
   * check's answer, a monitor slot) for longer than the budget. The questions cut short end on
   * their own timeouts.
   */
  private withinBudget(diagnosis: Promise<DnsProblem | undefined>): Promise<DnsProblem | undefined> {
    let timer: NodeJS.Timeout | undefined;
    const budget = new Promise<undefined>((resolve) => {
      timer = setTimeout(() => resolve(undefined), this.options.budgetMs ?? DEFAULT_BUDGET_MS);
      timer.unref();
    });
    return Promise.race([diagnosis.catch(() => undefined), budget]).finally(() => clearTimeout(timer));
  }

  private async findBrokenDelegation(hostname: string): Promise<DnsProblem | undefined> {
    const zone = await this.zoneOf(hostname);
    if (!zone) return undefined;
    return { kind: 'broken_delegation', hostname, zone: zone.zone, nameservers: zone.nameservers };
  }

  private async findStaleCache(hostname: string, seen: DnsAnswers, now: Date): Promise<DnsProblem | undefined> {
    const zone = await this.zoneOf(hostname);
    if (!zone) return undefined;
    // Every nameserver at once: one that never answers must not make the others wait their turn.
    const servers = await this.addressesOf(zone.nameservers);
    const answers = await firstAnswer(servers.map((server) => this.authoritativeAnswers(server, hostname)));
    if (!answers) return undefined;
    if (classifyDnsAnswers(hostname, answers, this.options.edge).dns !== 'correct') return undefined;
    const cached = await this.cachedRecord(hostname, seen);
    const expiresAt =
      cached.ttl !== undefined ? new Date(Math.ceil((now.getTime() + cached.ttl * 1000) / 60_000) * 60_000) : undefined;
    return {
      kind: 'stale_cache',
      hostname,
      cached: cached.text,
      ...(cached.ttl !== undefined ? { ttl: cached.ttl, expiresAt: expiresAt!.toISOString() } : {}),
    };
  }

  /** The closest name from `hostname` up to its registrable domain with NS records. */
  private async zoneOf(hostname: string): Promise<Zone | undefined> {
    const registrable = getDomain(hostname) ?? hostname;
    const cached = this.zones.get(hostname);
    if (cached && Date.now() - cached.at < ZONE_CACHE_MS) return cached.zone;
    let zone: Zone | undefined;
    const labels = hostname.split('.');
    for (let i = 0; i < labels.length; i++) {
      const name = labels.slice(i).join('.');
      const nameservers = await this.nameservers(name);
      if (nameservers.length) {
        zone = { zone: name, nameservers };
        break;
      }
      if (name === registrable) break;
    }
    zone ??= await this.delegationAtParent(registrable);
    if (this.zones.size > 10_000) this.zones.clear();
    this.zones.set(hostname, { zone, at: Date.now() });
    return zone;
  }

  /**
   * A zone whose DNSSEC or servers are broken fails even its NS query at a validating resolver; its
   * parent's servers (the TLD's) still hold the delegation: ask them directly, without recursion.
   */
  private async delegationAtParent(registrable: string): Promise<Zone | undefined> {
    const parent = registrable.slice(registrable.indexOf('.') + 1);
    if (!parent || parent === registrable) return undefined;
    const servers = await this.addressesOf(await this.nameservers(parent));
    return firstAnswer(
      servers.map(async (server) => {
        const answer = await this.ask(server, registrable, 'NS', false);
        const nameservers = [...answer.answers, ...answer.authorities]
          .filter((r) => r.type === 'NS' && r.name === registrable)
          .map((r) => r.value);
        return nameservers.length ? { zone: registrable, nameservers } : undefined;
      }),
    );
  }

  /** NS records owned by `name` itself (a CNAME at the name is not a delegation). */
  private async nameservers(name: string): Promise<string[]> {
    for (const server of this.resolverAddresses()) {
      const answer = await this.ask(server, name, 'NS', true).catch(() => undefined);
      if (!answer || answer.rcode !== 'NOERROR') continue;
      return answer.answers.filter((r) => r.type === 'NS' && r.name === name).map((r) => r.value);
    }
    return [];
  }

  private async addressesOf(nameservers: string[]): Promise<DnsServerAddress[]> {
    const found = await Promise.all(
      nameservers.slice(0, MAX_NAMESERVERS).map((ns) => this.resolver.a(ns).catch(() => [] as string[])),
    );
    const addresses = [...new Set(found.flat())];
    // Never send queries to private or reserved addresses a customer's NS records name.
    const blocked = new Set(checkResolvedAddresses(addresses, this.options.allowCidrs).offending.map((o) => o.address));
    return addresses
      .filter((address) => !blocked.has(address))
      .slice(0, MAX_SERVERS)
      .map((host) => ({ host, port: this.options.authoritativePort }));
  }

  private async authoritativeAnswers(server: DnsServerAddress, hostname: string): Promise<DnsAnswers | undefined> {
    const [cname, a, aaaa] = await Promise.all(
      (['CNAME', 'A', 'AAAA'] as const).map((type) => this.ask(server, hostname, type, false)),
    );
    if (![cname, a, aaaa].every((answer) => answer.authoritative && answer.rcode !== 'SERVFAIL')) return undefined;
    const own = (answer: WireAnswer, type: string) =>
      answer.answers.filter((r) => r.type === type && r.name === hostname).map((r) => r.value);
    return { cname: own(cname, 'CNAME')[0], a: own(a, 'A'), aaaa: own(aaaa, 'AAAA') };
  }

  /** What the recursive resolver serves from its cache, with the seconds it has left. */
  private async cachedRecord(hostname: string, seen: DnsAnswers): Promise<{ text: string; ttl?: number }> {
    const type = seen.cname ? 'CNAME' : seen.a.length ? 'A' : 'AAAA';
    const values = seen.cname ? [seen.cname] : seen.a.length ? seen.a : seen.aaaa;
    const text = `${type} ${values.join(', ')}`;
    for (const server of this.resolverAddresses()) {
      const answer = await this.ask(server, hostname, type, true).catch(() => undefined);
      const ttls = answer?.answers.filter((r) => r.type === type && r.name === hostname).map((r) => r.ttl) ?? [];
      if (ttls.length) return { text, ttl: Math.min(...ttls) };
    }
    return { text };
  }

  private resolverAddresses(): DnsServerAddress[] {
    return this.resolver.servers().map((server) => parseServerAddress(server));
  }

  private ask(server: DnsServerAddress, name: string, type: 'NS' | 'CNAME' | 'A' | 'AAAA', recursive: boolean) {
    return wireQuery(server, name, type, { recursive, timeoutMs: this.options.timeoutMs ?? 2_000 });
  }
}

/** Whether a lookup error is a SERVFAIL (the resolver tried and failed), not a timeout or refusal. */
export const isServfail = (error: unknown): boolean => error instanceof DnsLookupError && error.code === 'ESERVFAIL';
