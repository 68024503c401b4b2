import { EVENT_TYPES } from '@app/webhooks';
import type { DeliveryView, EndpointView } from '@app/webhooks';
import { ConsoleActor } from '../access';
import { html } from '../html';
import type { FormProblems } from '../forms/form-problems';
import { attemptText } from './attempt-text';
import { problemsOf } from './form-fields';
import { EndpointHealth, healthCell, healthFacts } from './endpoint-health.view';
import { WorkspaceContext, csrf, empty, layout, listPager, pill, when } from './layout';

function eventBoxes(selected: string[], disabled: boolean) {
  return html`<fieldset class="field">
    <legend><strong>Events</strong> <span class="hint">(none ticked: every event)</span></legend>
    ${EVENT_TYPES.map(
      (t) =>
        html`<label class="inline-check"
          ><input
            type="checkbox"
            name="events"
            value="${t}"
            ${selected.includes(t) ? html` checked` : ''}${disabled ? html` disabled` : ''}
          />
          <code>${t}</code></label
        >`,
    )}
  </fieldset>`;
}

/** The add-endpoint form sent back with what was typed and its problems. */
export interface NewEndpointForm {
  url: string;
  events: string[];
  problems: FormProblems;
}

export function webhooksPage(
  actor: ConsoleActor,
  w: WorkspaceContext,
  endpoints: (EndpointView & { dead: number; health: EndpointHealth })[],
  notice?: string,
  form?: NewEndpointForm,
) {
  const base = `/console/w/${w.id}/webhooks`;
  const problems = problemsOf(form?.problems, 'ep');
  return layout({
    title: 'Webhooks',
    actor,
    workspace: w,
    section: 'webhooks',
    notice,
    body: html`<div class="head">
        <div>
          <h1>Webhooks</h1>
          <p class="lead">
            Endpoints receive signed events; failed deliveries retry for 7 days, then wait here as dead letters to
            replay.
          </p>
        </div>
      </div>
      ${
        w.canWrite
          ? html`<section class="card">
              <h2>Add an endpoint</h2>
              ${problems.above()}
              <form method="post" action="${base}">
                ${csrf(actor)}
                <div class="field">
                  <label for="ep-url">URL</label
                  ><input
                    id="ep-url"
                    name="url"
                    type="url"
                    required
                    maxlength="2048"
                    placeholder="https://api.example.com/webhooks/domains"
                    value="${form?.url ?? ''}"
                    ${problems.attrs('url')}
                  />
                  ${problems.under('url')}
                </div>
                ${eventBoxes(form?.events ?? [], false)}<button type="submit">Add endpoint</button>
              </form>
            </section>`
          : ''
      }
      ${
        endpoints.length
          ? html`<div class="table-wrap">
              <table>
                <thead>
                  <tr>
                    <th scope="col">Endpoint</th>
                    <th scope="col">Events</th>
                    <th scope="col">State</th>
                    <th scope="col">Health</th>
                    <th scope="col">Dead letters</th>
                    <th scope="col">Created</th>
                  </tr>
                </thead>
                <tbody>
                  ${endpoints.map(
                    (e) =>
                      html`<tr>
                        <td><a href="${base}/${e.id}">${e.url}</a><br /><code class="muted">${e.id}</code></td>
                        <td>
                          ${e.events.length ? e.events.map((t) => html`<code>${t}</code><br />`) : html`<span class="muted">every event</span>`}
                        </td>
                        <td>${pill(e.enabled ? 'enabled' : 'disabled')}</td>
                        <td>${healthCell(e.health)}</td>
                        <td>
                          ${e.dead ? html`<a href="${base}/${e.id}?status=dead_lettered">${pill('dead_lettered')} ${e.dead}</a>` : '0'}
                        </td>
                        <td>${when(e.createdAt)}</td>
                      </tr>`,
                  )}
                </tbody>
              </table>
            </div>`
          : empty(
              'No webhook endpoints',
              w.canWrite
                ? 'Add one above to hear when domains go live or fail.'
                : 'A member of this workspace can add one.',
            )
      }`,
  });
}

export interface EndpointDetail {
  endpoint: EndpointView;
  health: EndpointHealth;
  /** Each delivery's event is about this hostname (a domain's or a purchase's), when it is about one. */
  deliveries: (DeliveryView & { hostname?: string | null })[];
  status?: string;
  nextCursor: string | null;
  secret?: string;
  /** Refused settings sent back as typed, with their problems. */
  settingsForm?: EndpointSettingsForm;
}

/** The endpoint's settings form as typed, with its problems. */
interface EndpointSettingsForm {
  url: string;
  events: string[];
  enabled: boolean;
  problems: FormProblems;
}

const TABS = [
  ['', 'All'],
  ['pending', 'Pending'],
  ['delivered', 'Delivered'],
  ['dead_lettered', 'Dead letters'],
] as const;

export function endpointPage(actor: ConsoleActor, w: WorkspaceContext, d: EndpointDetail, notice?: string) {
  const base = `/console/w/${w.id}/webhooks/${d.endpoint.id}`;
  const disabled = !w.canWrite;
  const shown = d.settingsForm ?? d.endpoint;
  const problems = problemsOf(d.settingsForm?.problems, 'ep');
  return layout({
    title: d.endpoint.url,
    actor,
    workspace: w,
    section: 'webhooks',
    notice,
    body: html`<p><a href="/console/w/${w.id}/webhooks">← Webhooks</a></p>
      <div class="head">
        <div>
          <h1 class="break-all">${d.endpoint.url}</h1>
          <p class="lead"><code>${d.endpoint.id}</code> · ${pill(d.endpoint.enabled ? 'enabled' : 'disabled')}</p>
        </div>
        ${
          w.canWrite
            ? html`<div class="actions">
                <form method="post" action="${base}/rotate" class="inline">
                  ${csrf(actor)}<button type="submit" class="secondary">Rotate secret</button>
                </form>
                <a class="button secondary" href="${base}/delete">Delete…</a>
              </div>`
            : ''
        }
      </div>
      ${
        d.secret
          ? html`<div class="secret" role="status">
              <strong>Signing secret</strong> — copy it now, it will not be shown again. Verify each delivery's
              signature with it. <code id="endpoint-secret">${d.secret}</code
              ><button type="button" class="secondary" data-copy="endpoint-secret" hidden>Copy</button>
            </div>`
          : ''
      }
      <section class="card">
        <h2>Health</h2>
        ${healthFacts(d.health)}
        ${
          w.canWrite
            ? html`<form method="post" action="${base}/test" class="inline">
                ${csrf(actor)}<button type="submit" class="secondary">Send test event</button>
                <span class="hint">A signed <code>webhook_endpoint.test</code> delivery, retried like any other.</span>
              </form>`
            : ''
        }
      </section>
      <section class="card">
        <h2>Settings</h2>
        ${problems.above()}
        <form method="post" action="${base}/edit">
          ${csrf(actor)}
          <div class="field">
            <label for="ep-url">URL</label
            ><input
              id="ep-url"
              name="url"
              type="url"
              required
              value="${shown.url}"
              ${problems.attrs('url')}${disabled ? html` disabled` : ''}
            />
            ${problems.under('url')}
          </div>
          ${eventBoxes(shown.events, disabled)} ${problems.under('events')}
          <div class="field">
            <label
              ><input
                type="checkbox"
                name="enabled"
                ${shown.enabled ? html` checked` : ''}${disabled ? html` disabled` : ''}
              />
              Enabled</label
            >
          </div>
          ${w.canWrite ? html`<button type="submit">Save endpoint</button>` : ''}
        </form>
      </section>
      <section class="card">
        <h2>Deliveries</h2>
        <nav class="actions" aria-label="Delivery status">
          ${TABS.map(
            ([value, label]) =>
              html`<a
                href="${base}${value ? `?status=${value}` : ''}"
                ${(d.status ?? '') === value ? html` aria-current="page" class="button"` : html` class="button secondary"`}
                >${label}</a
              >`,
          )}
        </nav>
        <br />
        ${
          d.deliveries.length
            ? html`<form method="post" action="${base}/replay">
                  ${csrf(actor)}
                  <div class="table-wrap">
                    <table>
                      <thead>
                        <tr>
                          ${
                            w.canWrite
                              ? html`<th scope="col">
                                  <label
                                    ><input
                                      type="checkbox"
                                      data-select-all="eventId"
                                      aria-label="Select every delivery"
                                  /></label>
                                </th>`
                              : ''
                          }
                          <th scope="col">Event</th>
                          <th scope="col">Status</th>
                          <th scope="col">Attempts</th>
                          <th scope="col">Last attempt</th>
                          <th scope="col">Next attempt</th>
                        </tr>
                      </thead>
                      <tbody>
                        ${d.deliveries.map(
                          (x) =>
                            html`<tr>
                              ${w.canWrite ? html`<td><input type="checkbox" name="eventId" value="${x.eventId}" aria-label="Select ${x.eventType} ${x.eventId}" /></td>` : ''}
                              <td>
                                <a href="${base}/deliveries/${x.id}"><code>${x.eventType}</code></a
                                >${x.hostname ? html`<br /><strong>${x.hostname}</strong>` : ''}<br /><code
                                  class="muted"
                                  >${x.eventId}</code
                                >
                              </td>
                              <td>${pill(x.status)}</td>
                              <td>${x.attempts}<br /><span class="muted">first ${when(x.firstAttemptAt)}</span></td>
                              <td>
                                ${x.lastAttempt ? html`${when(x.lastAttempt.at)}<br /><span class="muted">${attemptText(x.lastAttempt.statusCode, x.lastAttempt.error, x.lastAttempt.durationMs)}</span>` : '—'}
                              </td>
                              <td>
                                ${when(x.nextAttemptAt)}${x.deadLetteredAt ? html`<br /><span class="muted">dead-lettered ${when(x.deadLetteredAt)}</span>` : ''}
                              </td>
                            </tr>`,
                        )}
                      </tbody>
                    </table>
                  </div>
                  ${w.canWrite ? html`<button type="submit">Replay selected</button>` : ''}
                </form>
                ${d.nextCursor ? listPager(base, { status: d.status }, d.nextCursor, false) : ''}`
            : empty(
                d.status === 'dead_lettered' ? 'No dead letters' : 'No deliveries yet',
                d.status === 'dead_lettered'
                  ? 'Every event reached this endpoint or is still being retried.'
                  : 'Deliveries appear here when domains change.',
              )
        }
      </section>`,
  });
}

export function deleteEndpointPage(actor: ConsoleActor, w: WorkspaceContext, endpoint: EndpointView) {
  const base = `/console/w/${w.id}/webhooks/${endpoint.id}`;
  return layout({
    title: 'Delete endpoint',
    actor,
    workspace: w,
    section: 'webhooks',
    body: html`<section class="card error-card">
      <h1>Delete this endpoint?</h1>
      <p class="lead">
        <code>${endpoint.url}</code> stops receiving events at once; deliveries still pending are dropped.
      </p>
      <form method="post" action="${base}/delete" class="actions">
        ${csrf(actor)}<button type="submit" class="danger">Delete endpoint</button><a href="${base}">Cancel</a>
      </form>
    </section>`,
  });
}
