import type { RenewalQuote } from '@app/purchases';
import { ConsoleActor } from '../access';
import { html } from '../html';
import { WorkspaceContext, csrf, layout, when } from './layout';
import { money, priceTerms, yearsText } from './purchase-money.view';

export interface RenewConfirmation {
  purchaseId: string;
  quote: RenewalQuote;
  /** The card that will be charged, in words. */
  card: string;
  hasCard: boolean;
  /** The form's own idempotency key: a reload or a double click renews once. */
  requestKey: string;
  /** Why the page is shown again (the price moved since it was confirmed, a refused charge). */
  problem?: string;
}

/** Renewing asks first: the price, the period and the card, then one button that charges. */
export function renewConfirmPage(actor: ConsoleActor, w: WorkspaceContext, c: RenewConfirmation) {
  const base = `/console/w/${w.id}/purchases/${c.purchaseId}`;
  const q = c.quote;
  const years = yearsText(q.years);
  return layout({
    title: `Renew ${q.hostname}`,
    actor,
    workspace: w,
    section: 'purchases',
    body: html`<p><a href="${base}">← ${q.hostname}</a></p>
      <section class="card">
        <h1>Renew ${q.hostname} for ${years}?</h1>
        ${c.problem ? html`<div class="notice bad" role="alert">${c.problem}</div>` : ''}
        <dl class="facts" id="renewal-terms">
          ${priceTerms(q)}
          <dt>Period</dt>
          <dd>${years}: the expiry moves from ${when(q.expiresAt)} to ${when(q.renewedUntil)}</dd>
          <dt>Charged to</dt>
          <dd>${c.card}</dd>
        </dl>
        ${
          c.hasCard
            ? html`<form method="post" action="${base}/renew" class="actions">
                ${csrf(actor)}<input type="hidden" name="requestKey" value="${c.requestKey}" /><input
                  type="hidden"
                  name="years"
                  value="${q.years}"
                /><input type="hidden" name="confirmedTotalCents" value="${q.totalCents}" />
                <button type="submit">Pay ${money(q.totalCents, q.currency)} and renew</button
                ><a href="${base}">Cancel</a>
              </form>`
            : html`<p class="field-problem">
                No card on file: <a href="/console/w/${w.id}/card">add a card</a> before renewing.
              </p>`
        }
      </section>`,
  });
}
