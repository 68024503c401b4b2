import { DomainError } from '@app/kernel';
import { CardSummary, PaymentDeclinedError, PaymentUnavailableError, Payments } from '@app/payments';
import { WorkspaceRepository } from '@app/workspaces';
import { Injectable } from '@nestjs/common';

/** The workspace's card as the payment provider describes it, or why it cannot be shown. */
export type CardOnFile = { card: CardSummary } | { none: true } | { unreadable: string; paymentMethod: string };

/**
 * The workspace's saved card, read and changed through the Payments adapter (Stripe's
 * `GET /v1/payment_methods/{id}` with PAYMENTS=stripe): a card is checked with the provider before
 * it is saved, so a mistyped id is refused at the form instead of at the next purchase.
 */
@Injectable()
export class WorkspaceCards {
  constructor(
    private readonly workspaces: WorkspaceRepository,
    private readonly payments: Payments,
  ) {}

  async onFile(workspaceId: string): Promise<CardOnFile> {
    const paymentMethod = await this.workspaces.paymentMethodOf(workspaceId);
    if (!paymentMethod) return { none: true };
    try {
      return { card: await this.payments.card(paymentMethod) };
    } catch (error) {
      if (error instanceof PaymentDeclinedError || error instanceof PaymentUnavailableError)
        return { unreadable: error.message, paymentMethod };
      throw error;
    }
  }

  /** Saves `paymentMethod` once the provider knows it as a card; a 400 on `paymentMethod` otherwise. */
  async save(workspaceId: string, paymentMethod: string): Promise<CardSummary> {
    let card: CardSummary;
    try {
      card = await this.payments.card(paymentMethod);
    } catch (error) {
      if (error instanceof PaymentDeclinedError)
        throw new DomainError('bad_request', `The card was not saved: ${error.message}`, { field: 'paymentMethod' });
      if (error instanceof PaymentUnavailableError)
        throw new DomainError('service_unavailable', `The card could not be checked just now: ${error.message}`);
      throw error;
    }
    await this.workspaces.setPaymentMethod(workspaceId, card.paymentMethod);
    return card;
  }
}
