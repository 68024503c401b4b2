import type { DeliveryAttemptRecord, DeliveryView, EndpointView } from '@app/webhooks';
import { ConsoleActor } from '../access';
import { html } from '../html';
import { attemptText } from './attempt-text';
import { WorkspaceContext, csrf, empty, layout, pill, when } from './layout';

export interface DeliveryDetail {
  endpoint: EndpointView;
  delivery: DeliveryView;
  attempts: DeliveryAttemptRecord[];
  /** How many attempts the history keeps per delivery. */
  kept: number;
}

/** One delivery: where it stands, and each attempt (time, answer, duration) newest first. */
export function deliveryPage(actor: ConsoleActor, w: WorkspaceContext, d: DeliveryDetail) {
  const x = d.delivery;
  const back = `/console/w/${w.id}/webhooks/${d.endpoint.id}`;
  return layout({
    title: `Delivery ${x.id}`,
    actor,
    workspace: w,
    section: 'webhooks',
    body: html`<p><a href="${back}">← ${d.endpoint.url}</a></p>
      <div class="head">
        <div>
          <h1><code>${x.eventType}</code> delivery</h1>
          <p class="lead"><code>${x.id}</code> · ${pill(x.status)} · event <code>${x.eventId}</code></p>
        </div>
        ${
          w.canWrite
            ? html`<form method="post" action="${back}/replay" class="inline">
                ${csrf(actor)}<input type="hidden" name="eventId" value="${x.eventId}" /><button type="submit">
                  Replay this event
                </button>
              </form>`
            : ''
        }
      </div>
      <section class="card">
        <dl class="facts">
          <dt>Attempts</dt>
          <dd>${x.attempts}</dd>
          <dt>First attempt</dt>
          <dd>${when(x.firstAttemptAt)}</dd>
          <dt>Next attempt</dt>
          <dd>${when(x.nextAttemptAt)}</dd>
          <dt>Delivered</dt>
          <dd>${when(x.deliveredAt)}</dd>
          <dt>Dead-lettered</dt>
          <dd>${when(x.deadLetteredAt)}</dd>
          <dt>Created</dt>
          <dd>${when(x.createdAt)}</dd>
        </dl>
      </section>
      <section class="card">
        <h2>Attempt history</h2>
        ${
          d.attempts.length
            ? html`<div class="table-wrap">
                  <table>
                    <thead>
                      <tr>
                        <th scope="col">When</th>
                        <th scope="col">Answer</th>
                        <th scope="col">Then</th>
                      </tr>
                    </thead>
                    <tbody>
                      ${d.attempts.map(
                        (a) =>
                          html`<tr>
                            <td>${when(a.attemptedAt.toISOString())}</td>
                            <td>${attemptText(a.statusCode, a.error, a.durationMs) || '—'}</td>
                            <td>${pill(a.outcome)}</td>
                          </tr>`,
                      )}
                    </tbody>
                  </table>
                </div>
                <p class="muted">The newest ${d.kept} attempts of each delivery are kept.</p>`
            : empty('No attempt yet', 'The delivery workers send it when it is due; each attempt is listed here.')
        }
      </section>`,
  });
}
