import { DomainError } from '@app/kernel';
import type { SqlExecutor } from '@app/persistence';
import { Registrar, RegistrarRefusedError, RegistrarUnavailableError } from '@app/registrar';
import { FeePolicy, PurchasePrice, priceChanged, priceWithFee } from './model/purchase-pricing';
import { hostnameHeld } from './store/purchase-lookups.queries';

/** Registrar failures outside the saga: a refusal is the registrar's reason (502), an outage a 503. */
export function registrarFailure(error: unknown): never {
  if (error instanceof RegistrarRefusedError)
    throw new DomainError('registrar_error', `The registrar refused: ${error.reason}`, {
      reason: error.reason,
      registrarCode: error.registrarCode,
    });
  if (error instanceof RegistrarUnavailableError)
    throw new DomainError('service_unavailable', `The registrar is unavailable: ${error.message}`);
  throw error;
}

/**
 * Availability and the live price of a new purchase, before anything is written or charged:
 * 409 unavailable (taken, or bought through us already), 400 for WHOIS privacy on a TLD without it,
 * 409 price_changed above the caller's ceiling.
 */
export async function quotePurchase(
  db: SqlExecutor,
  registrar: Registrar,
  fees: FeePolicy,
  order: { hostname: string; years: number; whoisPrivacy: boolean; maxTotalCents?: number },
): Promise<PurchasePrice> {
  const unavailable = () =>
    new DomainError('unavailable', `${order.hostname} is not available for registration`, {
      hostname: order.hostname,
    });
  if (await hostnameHeld(db, order.hostname)) throw unavailable();
  const availability = await registrar.check(order.hostname).catch(registrarFailure);
  if (!availability.available) throw unavailable();
  if (order.whoisPrivacy && !availability.whoisPrivacySupported) {
    throw new DomainError('bad_request', `WHOIS privacy is not available for ${order.hostname}'s TLD`, {
      fields: [
        {
          field: 'enableWhoisPrivacy',
          problems: ['this TLD does not support WHOIS privacy: send enableWhoisPrivacy false'],
        },
      ],
    });
  }
  const wholesale = await registrar.registrationPrice(order.hostname, order.years).catch(registrarFailure);
  const price = priceWithFee(wholesale.wholesaleCents, fees);
  if (order.maxTotalCents !== undefined && price.totalCents > order.maxTotalCents)
    throw priceChanged(price.totalCents, order.maxTotalCents);
  return price;
}
