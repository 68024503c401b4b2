import { arrayOf, bool, dateTime, described, Infer, int, nullable, obj, oneOfValues, str } from '@app/kernel';
import { RenewalState } from './renewal.saga';
import { PURCHASE_STATUSES } from './purchase-saga.types';
import { CURRENCIES, Currency, PurchaseRecord } from './purchase.record';

/** The DomainPurchase of SPEC 2.5. */
export const purchaseSchema = obj({
  id: str('`pur_...`'),
  workspaceId: str(),
  hostname: str('Lowercased and trimmed'),
  years: int(),
  wholesaleCents: int('Registrar cost'),
  feeCents: int('Service fee'),
  totalCents: int('Amount charged: wholesale plus fee'),
  currency: oneOfValues(...CURRENCIES),
  registrar: str('Upstream registrar name'),
  registrarDomainId: nullable(str()),
  status: oneOfValues(...PURCHASE_STATUSES),
  registrant: obj({ firstName: str(), lastName: str(), email: str(), country: str() }),
  whoisPrivacyEnabled: bool,
  autoRenew: bool,
  expiresAt: dateTime(true),
  customerReference: nullable(str()),
  connectedDomainId: nullable(str('Present when autoConnect was used')),
  nameservers: described(
    arrayOf(str()),
    "The nameservers in effect: the custom ones, else the registrar's own (none before registration)",
  ),
  failure: nullable(obj({ code: str(), stage: str(), reason: str() })),
  createdAt: dateTime(),
  updatedAt: dateTime(),
});
export type PurchaseView = Infer<typeof purchaseSchema>;

/**
 * The nameservers a registered domain answers from: its custom ones, else the registrar's own
 * (`registrarNameservers`, the registrar adapter's defaults). One rule for the API, its webhooks and
 * the console, so none shows `[]` while the registrar serves the domain from its own nameservers.
 */
function nameserversInEffect(
  record: Pick<PurchaseRecord, 'nameservers' | 'saga'>,
  registrarNameservers: readonly string[],
): string[] {
  if (record.nameservers.length) return [...record.nameservers];
  return record.saga.status === 'completed' ? [...registrarNameservers] : [];
}

/** The DomainPurchase of SPEC 2.5, as the API and webhook payloads show it. */
export function toPurchaseView(record: PurchaseRecord, registrarNameservers: readonly string[]): PurchaseView {
  const { saga, registrant } = record;
  return {
    id: record.id,
    workspaceId: record.workspaceId,
    hostname: record.hostname,
    years: record.years,
    wholesaleCents: record.wholesaleCents,
    feeCents: record.feeCents,
    totalCents: record.totalCents,
    currency: record.currency,
    registrar: record.registrar,
    registrarDomainId: saga.registrarDomainId ?? null,
    status: saga.status,
    registrant: {
      firstName: registrant.firstName,
      lastName: registrant.lastName,
      email: registrant.email,
      country: registrant.country,
    },
    whoisPrivacyEnabled: record.whoisPrivacyEnabled,
    autoRenew: record.autoRenew,
    expiresAt: currentExpiry(record) ?? null,
    customerReference: record.customerReference ?? null,
    connectedDomainId: saga.connectedDomainId ?? null,
    nameservers: nameserversInEffect(record, registrarNameservers),
    failure: saga.failure ?? null,
    createdAt: record.createdAt,
    updatedAt: record.updatedAt,
  };
}

/** The expiry after the latest successful renewal. */
export function currentExpiry(record: PurchaseRecord): string | undefined {
  const renewed = [...record.renewals].reverse().find((r) => r.step === 'renewed');
  return renewed?.expiresAt ?? record.saga.expiresAt;
}

/** One renewal as an answer shows it: what it charged and how far it moved the expiry. */
export interface RenewalView {
  n: number;
  years: number;
  wholesaleCents: number;
  feeCents: number;
  totalCents: number;
  currency: Currency;
  auto: boolean;
  status: RenewalState['step'];
  previousExpiresAt: string;
  expiresAt: string | null;
  createdAt: string;
}

export function toRenewalView(renewal: RenewalState): RenewalView {
  return {
    n: renewal.n,
    years: renewal.years,
    wholesaleCents: renewal.wholesaleCents,
    feeCents: renewal.feeCents,
    totalCents: renewal.totalCents,
    currency: 'USD',
    auto: renewal.auto,
    status: renewal.step,
    previousExpiresAt: renewal.previousExpiresAt,
    expiresAt: renewal.expiresAt ?? null,
    createdAt: renewal.createdAt,
  };
}
