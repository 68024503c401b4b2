import { DomainError } from '@app/kernel';
import { getDomain } from 'tldts';
import { ApplyResult, DesiredRecord, DnsProvider, WrittenRecord } from '../dns-provider';
import { ExistingRecord, planApply, zoneCandidates } from '../dns-apply.plan';
import { ProviderResponse, providerCall, providerReason } from '../provider-http';

/** Cloudflare's v4 envelope: `{success, errors: [{code, message}], messages, result, result_info}`. */
interface Envelope<T> {
  success?: boolean;
  errors?: { code: number; message: string }[];
  result?: T;
  result_info?: { page: number; per_page: number; total_pages?: number; total_count?: number };
}
interface CfRecord {
  id: string;
  type: string;
  name: string;
  content: string;
  proxied?: boolean;
}

const NAME = 'Cloudflare';
const envelope = <T>(r: ProviderResponse) => (r.body ?? {}) as Envelope<T>;
const firstError = (r: ProviderResponse) => envelope(r).errors?.[0]?.message;

/**
 * Cloudflare DNS with a customer API token (Zone:Read + DNS:Edit): verify the token, find the zone,
 * replace only the routing records at the hostname, create with `proxied: false` so the edge sees the
 * visitor's TLS handshake (an orange-cloud record would terminate TLS at Cloudflare instead).
 */
export class CloudflareProvider implements DnsProvider {
  readonly id = 'cloudflare' as const;
  readonly flattensApexCname = true;

  constructor(private readonly baseUrl: string) {}

  async apply(hostname: string, desired: DesiredRecord[], token: string): Promise<ApplyResult> {
    await this.verify(token);
    const zone = await this.findZone(hostname, token);
    const existing = await this.recordsAt(zone.id, hostname, token);
    const plan = planApply(
      existing.map((r) => ({ id: r.id, type: r.type, value: r.content, reusable: r.proxied !== true })),
      desired,
    );
    for (const record of plan.remove) await this.remove(zone.id, record, token);
    const written: WrittenRecord[] = plan.keep.map(({ desired: d, existing: e }) => ({
      ...d,
      id: e.id,
      action: 'kept',
    }));
    for (const record of plan.create) written.push(await this.create(zone.id, record, token));
    return { written, removed: plan.remove.length };
  }

  private async verify(token: string): Promise<void> {
    const res = await providerCall(NAME, `${this.baseUrl}/user/tokens/verify`, token);
    const body = envelope<{ status?: string }>(res);
    if (res.status === 200 && body.success && body.result?.status === 'active') return;
    if (res.status >= 500) throw this.refused(res, token);
    throw new DomainError(
      'dns_token_invalid',
      'Cloudflare rejected the API token: it is invalid, expired or disabled',
      {
        provider: this.id,
      },
    );
  }

  private async findZone(hostname: string, token: string): Promise<{ id: string; name: string }> {
    for (const name of zoneCandidates(hostname, getDomain(hostname))) {
      const res = await providerCall(NAME, `${this.baseUrl}/zones?name=${encodeURIComponent(name)}`, token);
      this.check(res, token);
      const zone = envelope<{ id: string; name: string }[]>(res).result?.find((z) => z.name === name);
      if (zone) return zone;
    }
    throw new DomainError(
      'dns_zone_not_found',
      `No Cloudflare zone this token can read holds ${hostname}: add the zone to Cloudflare, or give the token Zone:Read on it`,
      { provider: this.id, hostname },
    );
  }

  private async recordsAt(zoneId: string, hostname: string, token: string): Promise<CfRecord[]> {
    const records: CfRecord[] = [];
    for (let page = 1; ; page++) {
      const query = `name=${encodeURIComponent(hostname)}&per_page=100&page=${page}`;
      const res = await providerCall(
        NAME,
        `${this.baseUrl}/zones/${encodeURIComponent(zoneId)}/dns_records?${query}`,
        token,
      );
      this.check(res, token);
      const body = envelope<CfRecord[]>(res);
      records.push(...(body.result ?? []));
      if (page >= (body.result_info?.total_pages ?? 1)) break;
    }
    // The name filter is exact at Cloudflare; filtering again keeps other names safe whatever it returns.
    return records.filter((r) => r.name.toLowerCase() === hostname);
  }

  private async remove(zoneId: string, record: ExistingRecord, token: string): Promise<void> {
    const res = await providerCall(
      NAME,
      `${this.baseUrl}/zones/${encodeURIComponent(zoneId)}/dns_records/${encodeURIComponent(record.id)}`,
      token,
      {
        method: 'DELETE',
      },
    );
    this.check(res, token);
  }

  private async create(zoneId: string, record: DesiredRecord, token: string): Promise<WrittenRecord> {
    const res = await providerCall(NAME, `${this.baseUrl}/zones/${encodeURIComponent(zoneId)}/dns_records`, token, {
      method: 'POST',
      body: { type: record.type, name: record.name, content: record.value, ttl: record.ttl, proxied: false },
    });
    this.check(res, token);
    return { ...record, id: envelope<CfRecord>(res).result?.id ?? '', action: 'created' };
  }

  /** Cloudflare answers 403 (code 10000 "Authentication error") when the token lacks a permission. */
  private check(res: ProviderResponse, token: string): void {
    if (res.status >= 200 && res.status < 300 && envelope(res).success !== false) return;
    if (res.status === 401) {
      throw new DomainError('dns_token_invalid', 'Cloudflare rejected the API token', { provider: this.id });
    }
    if (res.status === 403) {
      throw new DomainError(
        'dns_token_insufficient_scope',
        'The Cloudflare token lacks a permission: it needs Zone:Read and DNS:Edit on this zone',
        { provider: this.id, required: ['Zone:Read', 'DNS:Edit'], reason: providerReason(firstError(res), token) },
      );
    }
    throw this.refused(res, token);
  }

  private refused(res: ProviderResponse, token: string): DomainError {
    const reason = providerReason(firstError(res), token) || `HTTP ${res.status}`;
    return new DomainError('dns_write_refused', `Cloudflare refused the change: ${reason}`, {
      provider: this.id,
      reason,
    });
  }
}
