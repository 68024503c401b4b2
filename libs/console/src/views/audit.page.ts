import { ConsoleActor } from '../access';
import { AUDIT_ACTIONS, AuditEntry } from '../console-audit.store';
import { html } from '../html';
import { auditDetail, auditTarget } from './audit-entry.view';
import { WorkspaceContext, empty, layout, when } from './layout';

export interface AuditFilters {
  action?: string;
  actor?: string;
}

/**
 * The workspace by its name, its id beside it (a deleted workspace keeps only the id). Shown under
 * the target rather than in a column of its own: six columns left the detail no room on a laptop.
 */
const workspaceCell = (id: string, name: string | null | undefined) =>
  name
    ? html`<a href="/console/w/${id}/audit">${name}</a> <code class="muted">${id}</code>`
    : html`<a href="/console/w/${id}/audit"><code>${id}</code></a>`;

export function auditPage(
  actor: ConsoleActor,
  w: WorkspaceContext | undefined,
  entries: AuditEntry[],
  filters: AuditFilters,
  nextCursor: string | null,
) {
  const base = w ? `/console/w/${w.id}/audit` : '/console/audit';
  const next = new URLSearchParams({
    ...(filters.action ? { action: filters.action } : {}),
    ...(filters.actor ? { actor: filters.actor } : {}),
  });
  if (nextCursor) next.set('cursor', nextCursor);
  return layout({
    title: 'Audit log',
    actor,
    workspace: w,
    section: 'audit',
    body: html`<div class="head">
        <div>
          <h1>Audit log</h1>
          <p class="lead">
            ${w ? `Who did what in ${w.name}.` : actor.user.operator ? 'Who did what, across every workspace.' : 'Who did what in your workspaces.'}
          </p>
        </div>
      </div>
      <form method="get" action="${base}" class="filters" role="search" aria-label="Filter the audit log">
        <div class="field">
          <label for="a-action">Action</label
          ><select id="a-action" name="action">
            <option value="">any</option>
            ${AUDIT_ACTIONS.map((a) => html`<option value="${a}" ${a === filters.action ? html` selected` : ''}>${a}</option>`)}
          </select>
        </div>
        <div class="field">
          <label for="a-actor">Who (email, API key, OAuth client, admin token)</label
          ><input id="a-actor" name="actor" type="text" value="${filters.actor ?? ''}" />
        </div>
        <button type="submit" class="secondary">Filter</button
        >${filters.action || filters.actor ? html`<a href="${base}">Clear filters</a>` : ''}
      </form>
      ${
        entries.length
          ? html`<div class="table-wrap">
                <table class="stack">
                  <thead>
                    <tr>
                      <th scope="col">When</th>
                      <th scope="col">Who</th>
                      <th scope="col">Action</th>
                      <th scope="col">${w ? 'Target' : 'Target (workspace)'}</th>
                      <th scope="col">Detail</th>
                    </tr>
                  </thead>
                  <tbody>
                    ${entries.map(
                      (e) =>
                        html`<tr>
                          <td class="nowrap" data-label="When">${when(e.createdAt)}</td>
                          <td data-label="Who">${e.actor}</td>
                          <td data-label="Action" class="nowrap"><code>${e.action}</code></td>
                          <td data-label="Target" class="wide">
                            ${auditTarget(e)}${w || !e.workspaceId ? '' : html`<br />in ${workspaceCell(e.workspaceId, e.workspaceName)}`}
                          </td>
                          <td data-label="Detail" class="break-anywhere">${auditDetail(e)}</td>
                        </tr>`,
                    )}
                  </tbody>
                </table>
              </div>
              ${nextCursor ? html`<div class="pager"><a class="button secondary" href="${base}?${next.toString()}">Older →</a></div>` : ''}`
          : empty(
              'Nothing recorded',
              filters.action || filters.actor
                ? 'No entry matches these filters.'
                : 'Changes made in the console, through the API and with the admin token are listed here.',
            )
      }`,
  });
}
