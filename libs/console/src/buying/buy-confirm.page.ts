import { ConsoleActor } from '../access';
import { Html, html } from '../html';
import { WorkspaceContext, csrf, layout } from '../views/layout';
import { money, priceTerms, yearsText } from '../views/purchase-money.view';
import { BuyForm, REGISTRANT_FIELDS } from './buy-form';

interface PurchaseQuoteView {
  hostname: string;
  years: number;
  wholesaleCents: number;
  feeCents: number;
  totalCents: number;
  currency: string;
}

export interface BuyConfirmation {
  form: BuyForm;
  quote: PurchaseQuoteView;
  card: string;
  hasCard: boolean;
  /** This confirmation's idempotency key: a resent or double-clicked form buys once. */
  requestKey: string;
  problem?: string;
}

/** The typed form again, hidden, so the confirmation buys (or goes back to) exactly what was reviewed. */
function carried(f: BuyForm): Html {
  const hidden = (name: string, value: string) => html`<input type="hidden" name="${name}" value="${value}" />`;
  return html`${hidden('hostname', f.hostname)}${hidden('years', f.years)}${f.whoisPrivacy ? hidden('whoisPrivacy', 'on') : ''}${f.autoRenew ? hidden('autoRenew', 'on') : ''}${REGISTRANT_FIELDS.map(([name]) => hidden(name, f.registrant[name]))}`;
}

/** Buying asks first: the price, the period, the owner of record and the card, then one button that charges. */
export function buyConfirmPage(actor: ConsoleActor, w: WorkspaceContext, c: BuyConfirmation) {
  const base = `/console/w/${w.id}/purchases`;
  const { quote: q, form: f } = c;
  const r = f.registrant;
  const years = yearsText(q.years);
  return layout({
    title: `Buy ${q.hostname}`,
    actor,
    workspace: w,
    section: 'purchases',
    body: html`<p><a href="${base}/buy">← Buy a domain</a></p>
      <section class="card">
        <h1>Buy ${q.hostname} for ${years}?</h1>
        ${c.problem ? html`<div class="notice bad" role="alert">${c.problem}</div>` : ''}
        <dl class="facts" id="purchase-terms">
          ${priceTerms(q)}
          <dt>Period</dt>
          <dd>${years} from today${f.autoRenew ? ', then renewed every year' : ''}</dd>
          <dt>Owner of record</dt>
          <dd>
            ${r.firstName} ${r.lastName}${r.organization ? html`, ${r.organization}` : ''}, ${r.email}, ${r.phone}<br />${r.address1}${r.address2 ? html`, ${r.address2}` : ''},
            ${r.city}, ${r.stateOrProvince} ${r.postalCode}, ${r.country.toUpperCase()}
          </dd>
          <dt>WHOIS privacy</dt>
          <dd>${f.whoisPrivacy ? 'on' : 'off'}</dd>
          <dt>Charged to</dt>
          <dd>${c.card}</dd>
        </dl>
        <div class="actions">
          ${
            c.hasCard
              ? html`<form method="post" action="${base}/buy" class="inline">
                  ${csrf(actor)}<input type="hidden" name="step" value="buy" /><input
                    type="hidden"
                    name="requestKey"
                    value="${c.requestKey}"
                  /><input type="hidden" name="confirmedTotalCents" value="${q.totalCents}" />${carried(f)}
                  <button type="submit">Pay ${money(q.totalCents, q.currency)} and buy</button>
                </form>`
              : html`<p class="field-problem">
                  No card on file: <a href="/console/w/${w.id}/card">add a card</a> before buying.
                </p>`
          }
          <form method="post" action="${base}/buy" class="inline">
            ${csrf(actor)}<input type="hidden" name="step" value="edit" />${carried(f)}
            <button type="submit" class="secondary">Change the details</button>
          </form>
        </div>
      </section>`,
  });
}
