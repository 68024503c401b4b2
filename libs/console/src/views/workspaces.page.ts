import { ConsoleActor, roleIn } from '../access';
import { html } from '../html';
import type { FormProblems } from '../forms/form-problems';
import { problemsOf } from './form-fields';
import { csrf, empty, layout, pill, when } from './layout';

const FREE_TIER_DOMAINS = 50;

export interface WorkspaceRow {
  id: string;
  name: string;
  domains: number;
  hasPaymentMethod: boolean;
  createdAt: string;
}

/** The new-workspace form sent back with what was typed and its problems. */
export interface NewWorkspaceForm {
  name: string;
  paymentMethod: string;
  problems: FormProblems;
}

export function workspacesPage(actor: ConsoleActor, rows: WorkspaceRow[], notice?: string, form?: NewWorkspaceForm) {
  const problems = problemsOf(form?.problems, 'ws');
  const create = actor.user.operator
    ? html`<section class="card">
        <h2>New workspace</h2>
        ${problems.above()}
        <form method="post" action="/console/workspaces" class="filters">
          ${csrf(actor)}
          <div class="field">
            <label for="ws-name">Name</label
            ><input
              id="ws-name"
              name="name"
              type="text"
              required
              maxlength="200"
              placeholder="Acme Inc."
              value="${form?.name ?? ''}"
              ${problems.attrs('name')}
            />
            ${problems.under('name')}
          </div>
          <div class="field">
            <label for="ws-card">Card on file <span class="hint">(payment method id, optional)</span></label
            ><input
              id="ws-card"
              name="paymentMethod"
              type="text"
              placeholder="pm_card_visa"
              value="${form?.paymentMethod ?? ''}"
              ${problems.attrs('paymentMethod')}
            />
            ${problems.under('paymentMethod')}
          </div>
          <button type="submit">Create workspace</button>
        </form>
      </section>`
    : '';
  return layout({
    title: 'Workspaces',
    actor,
    section: 'workspaces',
    notice,
    body: html`<div class="head">
        <div>
          <h1>Workspaces</h1>
          <p class="lead">
            ${actor.user.operator ? 'Every workspace on this service.' : 'The workspaces you are a member of.'}
          </p>
        </div>
      </div>
      ${create}
      ${
        rows.length
          ? html`<div class="table-wrap">
              <table>
                <thead>
                  <tr>
                    <th scope="col">Workspace</th>
                    <th scope="col">Your role</th>
                    <th scope="col">Domains (free tier ${FREE_TIER_DOMAINS})</th>
                    <th scope="col">Billing</th>
                    <th scope="col">Created</th>
                  </tr>
                </thead>
                <tbody>
                  ${rows.map(
                    (w) =>
                      html`<tr>
                        <td><a href="/console/w/${w.id}">${w.name}</a><br /><code class="muted">${w.id}</code></td>
                        <td>${actor.user.operator ? pill('operator') : pill(roleIn(actor, w.id) ?? '')}</td>
                        <td>${w.domains} / ${FREE_TIER_DOMAINS}</td>
                        <td>${w.hasPaymentMethod ? pill('active') : html`<span class="muted">no card</span>`}</td>
                        <td>${when(w.createdAt)}</td>
                      </tr>`,
                  )}
                </tbody>
              </table>
            </div>`
          : empty(
              'No workspaces yet',
              actor.user.operator
                ? 'Create the first one above: it gets its first API key at once.'
                : 'Ask an operator to add you to a workspace.',
            )
      }`,
  });
}

export interface OverviewData {
  workspace: { id: string; name: string; hasPaymentMethod: boolean; createdAt: string };
  /** The card on file in words (or that there is none). */
  card: string;
  domains: number;
  byStatus: { status: string; count: number }[];
  keys: number;
  endpoints: number;
  deadLetters: number;
  canWrite: boolean;
}

export function overviewPage(actor: ConsoleActor, d: OverviewData, notice?: string) {
  const used = Math.min(100, Math.round((d.domains / FREE_TIER_DOMAINS) * 100));
  const w = `/console/w/${d.workspace.id}`;
  return layout({
    title: d.workspace.name,
    actor,
    workspace: { id: d.workspace.id, name: d.workspace.name, canWrite: d.canWrite },
    section: 'overview',
    notice,
    body: html`<div class="head">
        <div>
          <h1>${d.workspace.name}</h1>
          <p class="lead"><code>${d.workspace.id}</code> · created ${when(d.workspace.createdAt)}</p>
        </div>
      </div>
      <div class="grid">
        <section class="card">
          <h2>Free tier usage</h2>
          <div class="stat">${d.domains} <span class="muted unit">of ${FREE_TIER_DOMAINS} domains</span></div>
          <progress class="meter" max="100" value="${used}" aria-label="${used}% of the free tier used"></progress>
          <p class="muted">
            ${d.byStatus.length ? d.byStatus.map((s) => html`${pill(s.status)} ${s.count} `) : 'No domains yet.'}
          </p>
          <p><a href="${w}/domains">Open domains →</a></p>
        </section>
        <section class="card">
          <h2>Billing</h2>
          <p>
            ${d.workspace.hasPaymentMethod ? html`${pill('active')} A card is on file: domains can be connected and bought.` : html`${pill('pending')} No card on file: creating domains answers 402 until one is saved.`}
          </p>
          <p id="billing-card">${d.card}</p>
          ${d.canWrite ? html`<p><a href="${w}/card">${d.workspace.hasPaymentMethod ? 'Change the card →' : 'Add a card →'}</a></p>` : ''}
        </section>
        <section class="card">
          <h2>API keys</h2>
          <div class="stat">${d.keys}</div>
          <p class="muted">live keys</p>
          <p><a href="${w}/keys">Manage keys →</a></p>
        </section>
        <section class="card">
          <h2>Webhooks</h2>
          <div class="stat">${d.endpoints}</div>
          <p class="muted">endpoints · ${d.deadLetters} dead-lettered deliveries</p>
          <p><a href="${w}/webhooks">Open webhooks →</a></p>
        </section>
      </div>`,
  });
}
