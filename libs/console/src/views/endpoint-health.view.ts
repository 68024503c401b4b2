import type { EndpointHealthRow } from '../console.queries';
import { html } from '../html';
import { attemptText } from './attempt-text';
import { when } from './layout';

/** What support asks first about an endpoint: is it failing, since when, why, and how often it works. */
export interface EndpointHealth {
  tried24h: number;
  ok24h: number;
  failingSince: string | null;
  lastError: string | null;
}

const NO_HEALTH: EndpointHealth = { tried24h: 0, ok24h: 0, failingSince: null, lastError: null };

export function toEndpointHealth(row: EndpointHealthRow | undefined): EndpointHealth {
  if (!row) return NO_HEALTH;
  return {
    tried24h: Number(row.tried),
    ok24h: Number(row.ok),
    failingSince: row.failing_since ? new Date(row.failing_since).toISOString() : null,
    lastError: row.failing_since ? attemptText(row.last_status, row.last_error, null) || 'failed' : null,
  };
}

/** "100% of 5 attempts in 24 h", or that nothing was tried. */
function successRate(h: EndpointHealth): string {
  if (!h.tried24h) return 'no attempts in the last 24 h';
  return `${Math.round((100 * h.ok24h) / h.tried24h)}% of ${h.tried24h} attempt${h.tried24h === 1 ? '' : 's'} succeeded in the last 24 h`;
}

/** The list's cell: failing (since when, why) or healthy, with the 24-hour rate. */
export function healthCell(h: EndpointHealth) {
  const state = h.failingSince
    ? html`<span class="pill bad">failing</span> since ${when(h.failingSince)}<br /><span class="muted"
          >${h.lastError}</span
        >`
    : h.tried24h
      ? html`<span class="pill ok">healthy</span>`
      : html`<span class="pill neutral">quiet</span>`;
  return html`${state}<br /><span class="muted">${successRate(h)}</span>`;
}

/** The endpoint page's facts. */
export function healthFacts(h: EndpointHealth) {
  return html`<dl class="facts">
    <dt>Health</dt>
    <dd>${h.failingSince ? html`<strong>Failing</strong>` : h.tried24h ? 'Healthy' : 'No recent attempts'}</dd>
    <dt>Failing since</dt>
    <dd>${h.failingSince ? when(h.failingSince) : '—'}</dd>
    <dt>Last error</dt>
    <dd>${h.lastError ?? '—'}</dd>
    <dt>Success rate</dt>
    <dd>${successRate(h)}</dd>
  </dl>`;
}
