import { APP_CONFIG, AppConfig } from '@app/config';
import { DomainError } from '@app/kernel';
import { Registrar, RegistrarDnsRecord, RegistrarRefusedError } from '@app/registrar';
import { Inject, Injectable } from '@nestjs/common';
import { PutDnsRecordsDto } from './dto/dns-records.dto';
import { priceWithFee } from '../model/purchase-pricing';
import { hostnameOrBadRequest } from './purchase-input';
import { hostnameHeld } from '../store/purchase-lookups.queries';
import { quotePurchase, registrarFailure } from '../purchase-quote';
import { PurchaseRecord } from '../model/purchase.record';
import { PurchaseRepository } from '../store/purchase.repository';
import { currentExpiry, toPurchaseView } from '../model/purchase.view';
import { RenewalQuote, extendedBy } from '../model/renewal-quote';
import { MikroSqlExecutor } from '@app/persistence';

const DEFAULT_TTL = 1800;

/** Reads and the registrar-side settings that live at the registrar only (its DNS records, its live view). */
@Injectable()
export class PurchaseQueries {
  constructor(
    private readonly purchases: PurchaseRepository,
    private readonly registrar: Registrar,
    private readonly db: MikroSqlExecutor,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /** Read-only and free: nothing is reserved. The one-year total is what a purchase would charge now. */
  async check(input: string) {
    const hostname = hostnameOrBadRequest(input);
    const availability = await this.registrar.check(hostname).catch(registrarFailure);
    const wholesale = await this.registrar.registrationPrice(hostname, 1).catch((error: unknown) => {
      if (error instanceof RegistrarRefusedError)
        throw new DomainError('bad_request', `hostname: ${error.reason}`, {
          fields: [{ field: 'hostname', problems: [error.reason] }],
        });
      return registrarFailure(error);
    });
    const price = priceWithFee(wholesale.wholesaleCents, this.fees);
    const available = availability.available && !(await hostnameHeld(this.db, hostname));
    return { hostname, available, totalCents: price.totalCents, currency: price.currency };
  }

  /**
   * What buying `hostname` for `years` would charge now, as the purchase itself checks it (taken or held:
   * 409 unavailable; WHOIS privacy on a TLD without it: 400), before anything is charged.
   */
  async purchaseQuote(input: string, years: number, whoisPrivacy: boolean) {
    const hostname = hostnameOrBadRequest(input);
    const price = await quotePurchase(this.db, this.registrar, this.fees, { hostname, years, whoisPrivacy });
    return { hostname, years, ...price };
  }

  /**
   * What renewing for `years` would charge now and the expiry it would give, before anything is charged
   * (the renewal's actor prices it the same way when it runs). Read-only, like check.
   */
  async renewalQuote(workspaceId: string, id: string, years: number): Promise<RenewalQuote> {
    const record = await this.purchases.get(workspaceId, id);
    const expiresAt = currentExpiry(record);
    if (record.saga.status !== 'completed' || !expiresAt)
      throw new DomainError('conflict', `The purchase is ${record.saga.status}: there is no registration to renew`);
    const wholesale = await this.registrar.renewalPrice(record.hostname, years).catch(registrarFailure);
    const price = priceWithFee(wholesale.wholesaleCents, this.fees);
    return { hostname: record.hostname, years, ...price, expiresAt, renewedUntil: extendedBy(expiresAt, years) };
  }

  async details(workspaceId: string, id: string) {
    const record = await this.purchases.get(workspaceId, id);
    const live =
      record.saga.status === 'completed'
        ? await this.registrar.liveDetails(record.hostname).catch(registrarFailure)
        : { registered: false, status: record.saga.status };
    return { purchase: toPurchaseView(record, this.registrar.defaultNameservers), live };
  }

  async dns(workspaceId: string, id: string) {
    const record = this.registrarDnsUsable(await this.purchases.get(workspaceId, id));
    const records = await this.registrar.getDnsRecords(record.hostname).catch(registrarFailure);
    return { hostname: record.hostname, records };
  }

  /** Replaces the whole set; the registrar applies it atomically, so a refused PUT changes nothing. */
  async putDns(workspaceId: string, id: string, dto: PutDnsRecordsDto) {
    const record = this.registrarDnsUsable(await this.purchases.get(workspaceId, id));
    const records: RegistrarDnsRecord[] = dto.records.map((r) => ({
      type: r.type,
      name: r.name.trim(),
      value: r.value,
      ttl: r.ttl ?? DEFAULT_TTL,
      ...(r.type === 'MX' ? { priority: r.priority } : {}),
    }));
    await this.registrar.setDnsRecords(record.hostname, records).catch(registrarFailure);
    return { hostname: record.hostname, records };
  }

  private get fees() {
    return { percent: this.config.purchaseFeePercent, minCents: this.config.purchaseFeeMinCents };
  }

  /** SPEC 4.3 rule 6: with custom nameservers the registrar's records are not authoritative. */
  private registrarDnsUsable(record: PurchaseRecord): PurchaseRecord {
    if (record.saga.status !== 'completed')
      throw new DomainError('conflict', `The purchase is ${record.saga.status}: the domain is not registered`, {
        purchaseId: record.id,
      });
    if (record.nameservers.length)
      throw new DomainError(
        'conflict',
        'The domain uses custom nameservers, so the registrar DNS records do not apply; set an empty nameserver list to restore them',
        { purchaseId: record.id, nameservers: record.nameservers },
      );
    return record;
  }
}
