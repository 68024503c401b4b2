import type { PurchaseView, RenewalQuote } from '@app/purchases';
import { ConsoleActor } from '../access';
import { Html, html } from '../html';
import { DnsEditorState, dnsEditor } from './dns-editor.view';
import { WorkspaceContext, csrf, layout, pill, when } from './layout';
import { heldAndPaid, labelOf, money, renewalCharge, yearsText } from './purchase-money.view';

interface RenewalRow {
  n: number;
  years: number;
  totalCents: number;
  currency: string;
  auto: boolean;
  status: string;
  expiresAt: string | null;
  createdAt: string;
}

export interface PurchaseDetail {
  purchase: PurchaseView;
  /** What a year's renewal costs now (undefined: not renewable, or the registrar could not price it). */
  renewalPrice?: RenewalQuote;
  /** The custom nameservers set (empty: the registrar's own, listed in `purchase.nameservers`). */
  customNameservers: string[];
  /** What the registrar reports now, or why it could not be asked. */
  live: Record<string, unknown> | { error: string };
  renewals: RenewalRow[];
  /** A fresh idempotency key for the renew and connect forms: a double submit acts once. */
  formKey: string;
  /** The DNS editor, or why the registrar's records do not apply. */
  dns: DnsEditorState | { unavailable: string };
  /** Problems of a refused form other than DNS (nameservers, renew, connect). */
  formProblem?: { form: 'nameservers' | 'renew' | 'connect'; message: string; value?: string };
}

/** One value of the registrar's live view, as text (lists one per line). */
function liveValue(value: unknown): Html | string {
  if (Array.isArray(value))
    return html`${value.map((v) => html`<code>${JSON.stringify(v).replace(/^"|"$/g, '')}</code><br />`)}`;
  if (typeof value === 'boolean') return value ? 'yes' : 'no';
  if (value === null || value === undefined) return '—';
  if (typeof value === 'string') return /^\d{4}-\d{2}-\d{2}T[\d:.]+Z$/.test(value) ? when(value) : value;
  return JSON.stringify(value);
}

function liveCard(d: PurchaseDetail): Html {
  return html`<section class="card">
    <h2>At the registrar now</h2>
    ${
      'error' in d.live
        ? html`<p class="muted">The registrar could not be asked just now: ${d.live.error}</p>`
        : html`<dl class="facts">
            ${Object.entries(d.live).map(
              ([k, v]) =>
                html`<dt>${labelOf(k)}</dt>
                  <dd>${liveValue(v)}</dd>`,
            )}
          </dl>`
    }
  </section>`;
}

const problemFor = (d: PurchaseDetail, form: string) =>
  d.formProblem?.form === form ? html`<p class="field-problem" role="alert">${d.formProblem.message}</p>` : '';

function actionsCards(actor: ConsoleActor, w: WorkspaceContext, d: PurchaseDetail, base: string): Html {
  const p = d.purchase;
  if (p.status !== 'completed') return html``;
  const ro = w.canWrite ? '' : html` disabled`;
  const custom = d.customNameservers;
  const nameservers = d.formProblem?.form === 'nameservers' ? (d.formProblem.value ?? '') : custom.join('\n');
  return html`<div class="grid">
    <section class="card">
      <h2>Renew</h2>
      <p class="muted">
        ${
          d.renewalPrice
            ? html`A year's renewal costs
                <strong id="renewal-price">${money(d.renewalPrice.totalCents, d.renewalPrice.currency)}</strong> now.
                Choose the years: the next page shows the price, the new expiry and the card before anything is charged.`
            : 'The registrar could not price a renewal just now: the next page tries again before anything is charged.'
        }
      </p>
      ${problemFor(d, 'renew')}
      <form method="get" action="${base}/renew" class="filters">
        <div class="field">
          <label for="renew-years">Years</label
          ><select id="renew-years" name="years" ${ro}>
            ${Array.from({ length: 10 }, (_, i) => html`<option value="${i + 1}">${i + 1}</option>`)}
          </select>
        </div>
        ${w.canWrite ? html`<button type="submit">Review the renewal…</button>` : ''}
      </form>
      <h3>Auto-renew ${pill(p.autoRenew ? 'on' : 'off')}</h3>
      <p class="muted">
        ${p.autoRenew ? 'Renewed for a year shortly before it expires.' : html`Off: the domain lapses at ${when(p.expiresAt)}.`}
      </p>
      ${
        w.canWrite
          ? html`<form method="post" action="${base}/auto-renew">
              ${csrf(actor)}<input type="hidden" name="autoRenew" value="${p.autoRenew ? 'false' : 'true'}" />
              <button type="submit" class="secondary">
                ${p.autoRenew ? 'Turn auto-renew off' : 'Turn auto-renew on'}
              </button>
            </form>`
          : ''
      }
    </section>
    <section class="card">
      <h2>Nameservers</h2>
      <p class="muted">
        ${custom.length ? 'Custom nameservers: the registrar DNS records below do not apply.' : "The registrar's own nameservers: its DNS records below are live."}
      </p>
      <p>In effect: ${p.nameservers.map((ns) => html`<code class="nameserver">${ns}</code> `)}</p>
      ${problemFor(d, 'nameservers')}
      <form method="post" action="${base}/nameservers">
        ${csrf(actor)}
        <div class="field">
          <label for="ns">Custom nameservers <span class="hint">(one per line, up to 13)</span></label
          ><textarea id="ns" name="nameservers" rows="4" ${ro}>${nameservers}</textarea>
        </div>
        ${w.canWrite ? html`<button type="submit">Save nameservers</button>` : ''}
      </form>
      ${
        w.canWrite && custom.length
          ? html`<form method="post" action="${base}/nameservers" class="spaced">
              ${csrf(actor)}<input type="hidden" name="nameservers" value="" />
              <button type="submit" class="secondary">Restore the registrar's nameservers</button>
            </form>`
          : ''
      }
    </section>
  </div>`;
}

function connectCard(actor: ConsoleActor, w: WorkspaceContext, d: PurchaseDetail, base: string): Html {
  const p = d.purchase;
  if (p.connectedDomainId) {
    return html`<section class="card">
      <h2>Connected</h2>
      <p>
        Connected as the domain <a href="/console/w/${w.id}/domains/${p.connectedDomainId}">${p.hostname}</a>: its page
        says whether it is live yet.
      </p>
    </section>`;
  }
  if (p.status !== 'completed' || !w.canWrite) return html``;
  return html`<section class="card">
    <h2>Connect to the service</h2>
    <p class="muted">
      Creates the domain here and points its registrar DNS at the edge, so the certificate is issued and traffic reaches
      your origin.
    </p>
    ${problemFor(d, 'connect')}
    <form method="post" action="${base}/connect" class="filters">
      ${csrf(actor)}<input type="hidden" name="requestKey" value="${d.formKey}" />
      <div class="field grow">
        <label for="connect-origin">Origin URL</label
        ><input id="connect-origin" name="originUrl" type="url" required placeholder="https://app.example.com" />
      </div>
      <button type="submit">Connect domain</button>
    </form>
  </section>`;
}

function renewalsCard(d: PurchaseDetail): Html {
  if (!d.renewals.length) return html``;
  return html`<section class="card">
    <h2>Renewals</h2>
    <div class="table-wrap">
      <table>
        <thead>
          <tr>
            <th scope="col">#</th>
            <th scope="col">Years</th>
            <th scope="col">Charged</th>
            <th scope="col">How</th>
            <th scope="col">Status</th>
            <th scope="col">New expiry</th>
            <th scope="col">When</th>
          </tr>
        </thead>
        <tbody>
          ${d.renewals.map(
            (r) =>
              html`<tr>
                <td>${r.n}</td>
                <td>${r.years}</td>
                <td>${renewalCharge(r)}</td>
                <td>${r.auto ? 'auto-renew' : 'by hand'}</td>
                <td>${pill(r.status)}</td>
                <td>${when(r.expiresAt)}</td>
                <td>${when(r.createdAt)}</td>
              </tr>`,
          )}
        </tbody>
      </table>
    </div>
  </section>`;
}

export function purchasePage(actor: ConsoleActor, w: WorkspaceContext, d: PurchaseDetail, notice?: string) {
  const p = d.purchase;
  const held = heldAndPaid(p, d.renewals);
  const base = `/console/w/${w.id}/purchases/${p.id}`;
  return layout({
    title: p.hostname,
    actor,
    workspace: w,
    section: 'purchases',
    notice,
    body: html`<p><a href="/console/w/${w.id}/purchases">← Purchases</a></p>
      <div class="head">
        <div>
          <h1>${p.hostname}</h1>
          <p class="lead"><code>${p.id}</code> · ${pill(p.status)} · expires ${when(p.expiresAt)}</p>
        </div>
      </div>
      ${
        p.failure
          ? html`<section class="card error-card">
              <h2>
                The purchase failed (at the
                ${p.failure.stage === 'autoConnect' ? 'connection to the service' : p.failure.stage === 'register' ? 'registration' : 'charge'})
              </h2>
              <p>${p.failure.reason}</p>
            </section>`
          : ''
      }
      <div class="grid">
        <section class="card">
          <h2>Purchase</h2>
          <dl class="facts">
            <dt>Registered for</dt>
            <dd>${held.years ? yearsText(held.years) : 'not registered'}</dd>
            <dt>Money</dt>
            <dd>${held.paid} <span class="muted">(our fee ${money(p.feeCents, p.currency)} a purchase)</span></dd>
            <dt>Registrar</dt>
            <dd>${p.registrar} <code class="muted">${p.registrarDomainId ?? ''}</code></dd>
            <dt>Registrant</dt>
            <dd>${p.registrant.firstName} ${p.registrant.lastName}, ${p.registrant.email} (${p.registrant.country})</dd>
            <dt>WHOIS privacy</dt>
            <dd>${p.whoisPrivacyEnabled ? 'on' : 'off'}</dd>
            <dt>Reference</dt>
            <dd>${p.customerReference ?? '—'}</dd>
            <dt>Bought</dt>
            <dd>${when(p.createdAt)}</dd>
          </dl>
        </section>
        ${liveCard(d)}
      </div>
      ${connectCard(actor, w, d, base)} ${actionsCards(actor, w, d, base)}
      <section class="card" id="dns">
        <h2>DNS records at the registrar</h2>
        ${'unavailable' in d.dns ? html`<p class="muted">${d.dns.unavailable}</p>` : dnsEditor(actor, `${base}/dns`, d.dns, w.canWrite)}
      </section>
      ${renewalsCard(d)}`,
  });
}
