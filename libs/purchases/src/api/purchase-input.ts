import { HostnameError, normalizePurchaseHostname } from '@app/hostname-rules';
import { DomainError } from '@app/kernel';
import { idempotentId } from '@app/persistence';

/** Checks of a purchase request's input that need no I/O, shared by the purchase use cases. */

export function hostnameOrBadRequest(input: string, field = 'hostname'): string {
  try {
    return normalizePurchaseHostname(input).hostname;
  } catch (error) {
    if (error instanceof HostnameError)
      throw new DomainError('bad_request', `${field}: ${error.message}`, {
        fields: [{ field, problems: [error.message] }],
      });
    throw error;
  }
}

/**
 * The purchase's id: derived from the Idempotency-Key when there is one, so a retry of a request
 * whose first answer was not kept (a 5xx) reaches the same purchase instead of buying again.
 */
export function purchaseIdFor(workspaceId: string, idempotencyKey?: string): string {
  return idempotentId('pur', workspaceId, idempotencyKey, 'hex');
}

const NS_LABEL = /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/;

/** A nameserver: a fully qualified hostname of at least two labels, lowercased, no trailing dot. */
export function normalizeNameserver(input: string): string {
  const name = input.trim().toLowerCase().replace(/\.$/, '');
  const labels = name.split('.');
  if (name.length < 1 || name.length > 253 || labels.length < 2 || !labels.every((l) => NS_LABEL.test(l)))
    throw new Error(`${JSON.stringify(input)} is not a valid hostname`);
  if (/^\d+$/.test(labels[labels.length - 1])) throw new Error(`${JSON.stringify(input)} is an IP address`);
  return name;
}
