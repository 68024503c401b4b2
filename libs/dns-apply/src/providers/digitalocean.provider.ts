import { DomainError } from '@app/kernel';
import { getDomain } from 'tldts';
import { ApplyResult, DesiredRecord, DnsProvider, WrittenRecord } from '../dns-provider';
import { planApply, zoneCandidates } from '../dns-apply.plan';
import { ProviderResponse, providerCall, providerReason } from '../provider-http';

/** DigitalOcean's records (names relative to the zone, `@` at the apex) and its `{id, message}` errors. */
interface DoRecord {
  id: number;
  type: string;
  name: string;
  data: string;
}
interface DoError {
  id?: string;
  message?: string;
}

const NAME = 'DigitalOcean';
const PER_PAGE = 200;

/** DigitalOcean DNS with a customer token that can read and write domains. */
export class DigitalOceanProvider implements DnsProvider {
  readonly id = 'digitalocean' as const;
  readonly flattensApexCname = false;

  constructor(private readonly baseUrl: string) {}

  async apply(hostname: string, desired: DesiredRecord[], token: string): Promise<ApplyResult> {
    const zone = await this.findZone(hostname, token);
    const label = hostname === zone ? '@' : hostname.slice(0, -(zone.length + 1));
    const existing = await this.recordsAt(zone, hostname, label, token);
    const plan = planApply(
      existing.map((r) => ({ id: String(r.id), type: r.type, value: this.absolute(r.data, zone) })),
      desired,
    );
    for (const record of plan.remove) {
      const res = await providerCall(NAME, `${this.baseUrl}/domains/${zone}/records/${record.id}`, token, {
        method: 'DELETE',
      });
      this.check(res, token);
    }
    const written: WrittenRecord[] = plan.keep.map(({ desired: d, existing: e }) => ({
      ...d,
      id: e.id,
      action: 'kept',
    }));
    for (const record of plan.create) {
      const res = await providerCall(NAME, `${this.baseUrl}/domains/${zone}/records`, token, {
        method: 'POST',
        // A CNAME target is absolute only with its trailing dot; without it DigitalOcean appends the zone.
        body: {
          type: record.type,
          name: label,
          data: record.type === 'CNAME' ? `${record.value}.` : record.value,
          ttl: record.ttl,
        },
      });
      this.check(res, token);
      const created = (res.body as { domain_record?: DoRecord } | undefined)?.domain_record;
      written.push({ ...record, id: String(created?.id ?? ''), action: 'created' });
    }
    return { written, removed: plan.remove.length };
  }

  /** The first request doubles as the token check: 401 is a bad token, 403 a missing scope. */
  private async findZone(hostname: string, token: string): Promise<string> {
    for (const name of zoneCandidates(hostname, getDomain(hostname))) {
      const res = await providerCall(NAME, `${this.baseUrl}/domains/${encodeURIComponent(name)}`, token);
      if (res.status === 404) continue;
      this.check(res, token);
      return name;
    }
    throw new DomainError(
      'dns_zone_not_found',
      `No DigitalOcean domain in this account holds ${hostname}: add the domain under Networking > Domains first`,
      { provider: this.id, hostname },
    );
  }

  private async recordsAt(zone: string, hostname: string, label: string, token: string): Promise<DoRecord[]> {
    const records: DoRecord[] = [];
    for (let page = 1; ; page++) {
      const query = `name=${encodeURIComponent(hostname)}&per_page=${PER_PAGE}&page=${page}`;
      const res = await providerCall(NAME, `${this.baseUrl}/domains/${zone}/records?${query}`, token);
      this.check(res, token);
      const body = (res.body ?? {}) as { domain_records?: DoRecord[]; meta?: { total?: number } };
      records.push(...(body.domain_records ?? []));
      if (!body.domain_records?.length || records.length >= (body.meta?.total ?? 0)) break;
    }
    // Names come back relative to the zone; filtering again keeps other names safe whatever the filter did.
    return records.filter((r) => r.name.toLowerCase() === label);
  }

  private absolute(data: string, zone: string): string {
    if (data === '@') return zone;
    return data.endsWith('.') ? data.slice(0, -1) : data;
  }

  private check(res: ProviderResponse, token: string): void {
    if (res.status >= 200 && res.status < 300) return;
    const error = (res.body ?? {}) as DoError;
    const reason = providerReason(error.message, token) || `HTTP ${res.status}`;
    if (res.status === 401) {
      throw new DomainError('dns_token_invalid', 'DigitalOcean rejected the API token: it is invalid or expired', {
        provider: this.id,
      });
    }
    if (res.status === 403) {
      throw new DomainError(
        'dns_token_insufficient_scope',
        'The DigitalOcean token lacks a scope: it needs read and write access to domains',
        { provider: this.id, required: ['domain:read', 'domain:create', 'domain:delete'], reason },
      );
    }
    throw new DomainError('dns_write_refused', `DigitalOcean refused the change: ${reason}`, {
      provider: this.id,
      reason,
    });
  }
}
