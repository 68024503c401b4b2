import type { AuditEntry } from '../console-audit.store';
import { html } from '../html';

/** The names an entry's detail may carry for its target, most telling first. */
const NAME_KEYS = ['hostname', 'name', 'url', 'email'] as const;

const nameOf = (e: AuditEntry): string | undefined =>
  NAME_KEYS.map((k) => e.detail[k]).find((v): v is string => typeof v === 'string');

const valueText = (value: unknown): string =>
  value === null || value === undefined
    ? '—'
    : typeof value === 'string'
      ? value
      : typeof value === 'number' || typeof value === 'boolean'
        ? String(value)
        : Array.isArray(value) && value.every((v) => typeof v !== 'object' || v === null)
          ? value.map((v) => valueText(v)).join(', ') || '—' // a list (scopes, events) reads as one
          : JSON.stringify(value);

/** The target by name (hostname, URL, email), its id below. */
export function auditTarget(e: AuditEntry) {
  const name = nameOf(e);
  if (!e.target && !name) return html`—`;
  // A domain's entries link to its page, which stays readable after it is deleted.
  const href =
    e.action.startsWith('domain.') && e.workspaceId && e.target
      ? `/console/w/${e.workspaceId}/domains/${e.target}`
      : '';
  const label = name ? html`<strong class="break-all">${name}</strong>` : '';
  return html`${href && label ? html`<a href="${href}">${label}</a><br />` : label ? html`${label}<br />` : ''}${
    e.target && e.target !== name ? html`<code class="muted">${e.target}</code>` : ''
  }`;
}

/** The detail as readable lines (`before → after` where the entry has both), not a JSON blob. */
export function auditDetail(e: AuditEntry) {
  const name = nameOf(e);
  const before = (e.detail.before ?? {}) as Record<string, unknown>;
  const after = (e.detail.after ?? {}) as Record<string, unknown>;
  const changed = Object.keys({ ...before, ...after }).filter((k) => valueText(before[k]) !== valueText(after[k]));
  const changes = changed.map(
    (k) => html`<li>${k}: ${valueText(before[k])} → <strong>${valueText(after[k])}</strong></li>`,
  );
  const rest = Object.entries(e.detail)
    .filter(([k, v]) => k !== 'before' && k !== 'after' && v !== name)
    .map(([k, v]) => html`<li>${k}: ${valueText(v)}</li>`);
  const lines = [...changes, ...rest];
  return lines.length
    ? html`<ul class="plain">
        ${lines}
      </ul>`
    : html``;
}
