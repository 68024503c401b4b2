import { ConsoleActor } from '../access';
import { Html, html } from '../html';
import { WorkspaceContext, csrf, layout } from '../views/layout';
import { money } from '../views/purchase-money.view';
import { BuyForm, BuyProblems, REGISTRANT_FIELDS } from './buy-form';

interface Availability {
  hostname: string;
  available: boolean;
  totalCents: number;
  currency: string;
}

export interface BuyPageState {
  form: BuyForm;
  /** The search's answer (GET ...?hostname=). */
  availability?: Availability;
  problems?: BuyProblems;
  /** Why the search could not answer (a hostname that cannot be bought), under the search field. */
  searchProblem?: string;
}

const noProblems: BuyProblems = { fields: {}, form: [] };

function input(
  p: BuyProblems,
  name: string,
  label: string,
  value: string,
  options: { required?: boolean; type?: string; inputmode?: string; autocomplete?: string; id?: string } = {},
): Html {
  const id = options.id ?? `buy-${name.replace(/\W/g, '-')}`;
  const problem = p.fields[name];
  return html`<div class="field">
    <label for="${id}">${label}${options.required === false ? html` <span class="hint">(optional)</span>` : ''}</label
    ><input
      id="${id}"
      name="${name.replace(/^registrant\./, '')}"
      type="${options.type ?? 'text'}"
      value="${value}"
      ${options.required === false ? '' : html`required`}
      ${options.autocomplete ? html`autocomplete="${options.autocomplete}"` : ''}
      ${options.inputmode ? html`inputmode="${options.inputmode}"` : ''}
      ${problem ? html`aria-invalid="true" aria-describedby="${id}-problem"` : ''}
    />
    ${problem ? html`<p class="field-problem" id="${id}-problem">${problem}</p>` : ''}
  </div>`;
}

const AUTOCOMPLETE: Record<string, string> = {
  firstName: 'given-name',
  lastName: 'family-name',
  organization: 'organization',
  email: 'email',
  phone: 'tel',
  address1: 'address-line1',
  address2: 'address-line2',
  city: 'address-level2',
  stateOrProvince: 'address-level1',
  postalCode: 'postal-code',
  country: 'country',
};

function availabilityLine(a: Availability): Html {
  return a.available
    ? html`<p class="notice" role="status" id="availability">
        <strong>${a.hostname}</strong> is available: ${money(a.totalCents, a.currency)} for the first year.
      </p>`
    : html`<p class="notice bad" role="status" id="availability">
        <strong>${a.hostname}</strong> is not available: it is registered already, or its TLD is not offered.
      </p>`;
}

/** Buy a domain for the workspace: search, then the registrant, then a confirmation. */
export function buyPage(actor: ConsoleActor, w: WorkspaceContext, s: BuyPageState) {
  const base = `/console/w/${w.id}/purchases`;
  const p = s.problems ?? noProblems;
  const f = s.form;
  const detailsShown = s.availability?.available || s.problems;
  const searchProblem = s.searchProblem;
  return layout({
    title: 'Buy a domain',
    actor,
    workspace: w,
    section: 'purchases',
    body: html`<p><a href="${base}">← Purchases</a></p>
      <div class="head">
        <div>
          <h1>Buy a domain</h1>
          <p class="lead">Registered in the customer's name at our registrar and charged to this workspace's card.</p>
        </div>
      </div>
      <section class="card">
        <h2>Find a domain</h2>
        <form method="get" action="${base}/buy" class="filters" role="search" aria-label="Find a domain">
          <div class="field grow">
            <label for="find-hostname">Domain</label
            ><input
              id="find-hostname"
              name="hostname"
              type="search"
              required
              maxlength="253"
              placeholder="shop-example.com"
              value="${f.hostname}"
              ${searchProblem ? html`aria-invalid="true" aria-describedby="find-hostname-problem"` : ''}
            />
            ${searchProblem ? html`<p class="field-problem" id="find-hostname-problem">${searchProblem}</p>` : ''}
          </div>
          <button type="submit">Check availability</button>
        </form>
        ${s.availability ? availabilityLine(s.availability) : ''}
      </section>
      ${
        detailsShown
          ? html`<section class="card">
              <h2>Registration</h2>
              ${p.form.length ? html`<div class="notice bad" role="alert">${p.form.join(' ')}</div>` : ''}
              <form method="post" action="${base}/buy" novalidate>
                ${csrf(actor)}<input type="hidden" name="step" value="review" />
                <input type="hidden" name="hostname" value="${f.hostname}" />
                <p id="buy-domain">Domain: <strong>${f.hostname}</strong></p>
                ${p.fields.hostname ? html`<p class="field-problem" role="alert">${p.fields.hostname}</p>` : ''}
                <div class="field">
                  <label for="buy-years">Years</label
                  ><select
                    id="buy-years"
                    name="years"
                    ${p.fields.years ? html`aria-invalid="true" aria-describedby="buy-years-problem"` : ''}
                  >
                    ${Array.from(
                      { length: 10 },
                      (_, i) =>
                        html`<option value="${i + 1}" ${String(i + 1) === f.years ? html`selected` : ''}>
                          ${i + 1}
                        </option>`,
                    )}
                  </select>
                  ${p.fields.years ? html`<p class="field-problem" id="buy-years-problem">${p.fields.years}</p>` : ''}
                </div>
                <div class="field">
                  <label
                    ><input
                      type="checkbox"
                      name="whoisPrivacy"
                      ${f.whoisPrivacy ? html`checked` : ''}
                      ${p.fields.whoisPrivacy ? html`aria-invalid="true" aria-describedby="buy-whois-problem"` : ''}
                    />
                    WHOIS privacy (hides the registrant's address from public WHOIS)</label
                  >
                  ${p.fields.whoisPrivacy ? html`<p class="field-problem" id="buy-whois-problem">${p.fields.whoisPrivacy}</p>` : ''}
                  <label
                    ><input type="checkbox" name="autoRenew" ${f.autoRenew ? html`checked` : ''} /> Renew automatically
                    every year</label
                  >
                </div>
                <fieldset class="field scopes">
                  <legend>Registrant <span class="hint">(the legal owner: the details must be real)</span></legend>
                  ${REGISTRANT_FIELDS.map(([name, label, required]) =>
                    input(p, `registrant.${name}`, label, f.registrant[name], {
                      required,
                      type: name === 'email' ? 'email' : 'text',
                      inputmode: name === 'phone' ? 'tel' : undefined,
                      autocomplete: AUTOCOMPLETE[name],
                    }),
                  )}
                </fieldset>
                <button type="submit">Review the purchase…</button>
              </form>
            </section>`
          : ''
      }`,
  });
}
