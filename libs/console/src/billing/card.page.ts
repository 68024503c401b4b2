import { ConsoleActor } from '../access';
import { html } from '../html';
import { WorkspaceContext, csrf, layout } from '../views/layout';
import { cardText } from './card-text';
import type { CardOnFile } from './workspace-cards.service';

/** The card on file in words, for the billing card, the card page and a renewal's confirmation. */
export function cardOnFileText(onFile: CardOnFile): string {
  if ('card' in onFile) return cardText(onFile.card);
  if ('none' in onFile) return 'No card on file';
  return `${onFile.paymentMethod} (the payment provider could not describe it: ${onFile.unreadable})`;
}

/** Add or change the workspace's card; a refused id is shown under the field, as typed. */
export function cardPage(
  actor: ConsoleActor,
  w: WorkspaceContext,
  onFile: CardOnFile,
  form: { typed?: string; problem?: string } = {},
) {
  const base = `/console/w/${w.id}`;
  const has = !('none' in onFile);
  return layout({
    title: has ? 'Change the card' : 'Add a card',
    actor,
    workspace: w,
    section: 'overview',
    body: html`<p><a href="${base}">← ${w.name}</a></p>
      <section class="card">
        <h1>${has ? 'Change the card' : 'Add a card'}</h1>
        <p class="lead">On file: <strong id="card-on-file">${cardOnFileText(onFile)}</strong></p>
        <p class="muted">
          Domain purchases, renewals and new domains are charged to this card. Enter the payment method id your Stripe
          integration saved for this workspace (<code>pm_...</code>); it is checked with the payment provider before it
          is saved.
        </p>
        ${
          w.canWrite
            ? html`<form method="post" action="${base}/card">
                ${csrf(actor)}
                <div class="field">
                  <label for="card-pm">Payment method id</label
                  ><input
                    id="card-pm"
                    name="paymentMethod"
                    type="text"
                    required
                    maxlength="255"
                    autocomplete="off"
                    placeholder="pm_..."
                    value="${form.typed ?? ''}"
                    ${form.problem ? html`aria-invalid="true" aria-describedby="card-pm-problem"` : ''}
                  />
                  ${form.problem ? html`<p class="field-problem" id="card-pm-problem">${form.problem}</p>` : ''}
                </div>
                <div class="actions">
                  <button type="submit">${has ? 'Save the new card' : 'Save card'}</button><a href="${base}">Cancel</a>
                </div>
              </form>`
            : ''
        }
      </section>`,
  });
}
