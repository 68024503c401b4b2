import { ConsoleActor } from '../access';
import type { HostnameMatchRow } from '../console.queries';
import { html } from '../html';
import { empty, layout, pill, when } from './layout';

/** Operators: a hostname's domain in whichever workspace holds it, from one box. */
export function searchPage(actor: ConsoleActor, q: string | undefined, matches: HostnameMatchRow[], limit: number) {
  const rows = matches.map(
    (m) =>
      html`<tr>
        <td><a href="/console/w/${m.workspace_id}/domains/${m.id}">${m.hostname}</a></td>
        <td><a href="/console/w/${m.workspace_id}">${m.workspace_name}</a></td>
        <td>${pill(m.status)} ${pill(m.monitor_status)}</td>
        <td>${when(new Date(m.created_at).toISOString())}</td>
      </tr>`,
  );
  const results = !q
    ? ''
    : matches.length
      ? html`<p class="muted">
            ${matches.length === limit ? `The first ${limit} matches, by hostname.` : `${matches.length} found.`}
          </p>
          <div class="table-wrap" tabindex="0" role="region" aria-label="Matching domains">
            <table>
              <thead>
                <tr>
                  <th scope="col">Hostname</th>
                  <th scope="col">Workspace</th>
                  <th scope="col">Status</th>
                  <th scope="col">Created</th>
                </tr>
              </thead>
              <tbody>
                ${rows}
              </tbody>
            </table>
          </div>`
      : empty('No domain matches', `No live domain in any workspace has “${q}” in its hostname.`);
  return layout({
    title: 'Find a hostname',
    actor,
    section: 'search',
    body: html`<div class="head">
        <div>
          <h1>Find a hostname</h1>
          <p class="lead">Every workspace's live domains. Type part of a hostname a customer gave you.</p>
        </div>
      </div>
      <form method="get" action="/console/search" class="filters" role="search" aria-label="Find a hostname">
        <div class="field">
          <label for="s-q">Hostname contains</label
          ><input id="s-q" name="q" type="search" value="${q ?? ''}" placeholder="shop.example.com" required />
        </div>
        <button type="submit">Search</button>
      </form>
      ${results}`,
  });
}
