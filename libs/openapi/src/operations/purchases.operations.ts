import { CURRENCIES, RENEWAL_STEPS } from '@app/purchases';
import { arrayOf, bool, dateTime, envelope, freeForm, int, obj, oneOfValues, page, ref, str } from '../schema';
import type { OperationDoc } from './operation-doc';

const purchase = envelope('purchase', ref('DomainPurchase'));

/** A renewal's own charge: the purchase keeps the original registration's years and totalCents. */
export const RENEWAL_SCHEMA = obj({
  n: int('1 for the first renewal of the purchase'),
  years: int(),
  wholesaleCents: int(),
  feeCents: int(),
  totalCents: int('What this renewal charged'),
  currency: oneOfValues(...CURRENCIES),
  auto: bool,
  status: oneOfValues(...RENEWAL_STEPS),
  previousExpiresAt: dateTime(),
  expiresAt: dateTime(true),
  createdAt: dateTime(),
});

/** Domain purchases (SPEC 4.3). */
export const PURCHASE_OPERATIONS: Record<string, OperationDoc> = {
  'GET /v1/domain-purchases/check': {
    summary: 'Availability and the one-year price a purchase would charge (read-only, free, no reservation)',
    response: obj({ hostname: str(), available: bool, totalCents: int(), currency: oneOfValues(...CURRENCIES) }),
    errors: ['registrar_error', 'service_unavailable'],
  },
  'GET /v1/domain-purchases': { summary: 'List purchases', response: page('purchases', ref('DomainPurchase')) },
  'POST /v1/domain-purchases': {
    summary: 'Buy a domain: charge the saved card, register, optionally connect',
    description:
      'Steps: live price (409 price_changed above maxTotalCents, no charge), charge (402 billing_required), ' +
      'register (refused: refunded, 502 registration_failed with details.purchaseId), autoConnect (failure: rolled back and refunded).',
    response: purchase,
    errors: [
      'billing_required',
      'unavailable',
      'price_changed',
      'conflict',
      'registration_failed',
      'service_unavailable',
    ],
  },
  'GET /v1/domain-purchases/{id}': { summary: 'Get a purchase', response: purchase },
  'PATCH /v1/domain-purchases/{id}': {
    summary: 'Turn auto-renew on or off (off: the domain lapses at expiresAt)',
    response: purchase,
  },
  'GET /v1/domain-purchases/{id}/details': {
    summary: 'The purchase and what the registrar reports now',
    response: obj({ purchase: ref('DomainPurchase'), live: freeForm }),
    errors: ['registrar_error', 'service_unavailable'],
  },
  'GET /v1/domain-purchases/{id}/dns': {
    summary: "The registrar's DNS records",
    response: obj({ hostname: str(), records: arrayOf(ref('RegistrarDnsRecord')) }),
    errors: ['conflict', 'registrar_error', 'service_unavailable'],
  },
  'PUT /v1/domain-purchases/{id}/dns': {
    summary: "Replace the registrar's whole record set (GET first to add a record)",
    response: obj({ hostname: str(), records: arrayOf(ref('RegistrarDnsRecord')) }),
    errors: ['conflict', 'registrar_error', 'service_unavailable'],
  },
  'PUT /v1/domain-purchases/{id}/nameservers': {
    summary: 'Custom nameservers (0-13); an empty list restores the registrar defaults (and answers them)',
    response: obj({ hostname: str(), nameservers: arrayOf(str()) }),
    errors: ['conflict', 'registrar_error', 'service_unavailable'],
  },
  'POST /v1/domain-purchases/{id}/connect': {
    summary: 'Connect a purchase made without autoConnect: the Domain and the routing records, in one call',
    description:
      'The body is the autoConnect object (originUrl: https, SSRF-checked; keepHost default false). Creates the ' +
      'Domain in the same workspace (purchase.connectedDomainId) and rewrites only the A/AAAA/CNAME/ALIAS records ' +
      'at @ and www in the registrar record set (A records to the edge at @, a CNAME at www); MX, TXT and other ' +
      'names are kept. 409 conflict when already connected (details.domainId), when the hostname is connected ' +
      'elsewhere, or when the purchase is not completed; 402 without an active subscription. A failure after the ' +
      'Domain was created removes it again (502 registrar_error when the registrar refuses the DNS write): the ' +
      'purchase stays completed and unconnected.',
    response: obj({ purchase: ref('DomainPurchase'), domain: ref('Domain') }),
    errors: ['billing_required', 'preflight_failed', 'conflict', 'registrar_error', 'service_unavailable'],
  },
  'POST /v1/domain-purchases/{id}/renew': {
    summary: 'Charge and push expiresAt out by years',
    description:
      'Answers the purchase (its new expiresAt) and the renewal with its own years and totalCents. With ' +
      'maxTotalCents (the price the caller confirmed), a higher live price is 409 price_changed before any charge; ' +
      'a retry with the same Idempotency-Key answers the renewal it started.',
    response: obj({ purchase: ref('DomainPurchase'), renewal: RENEWAL_SCHEMA }),
    errors: ['billing_required', 'price_changed', 'conflict', 'registrar_error', 'service_unavailable'],
  },
};
