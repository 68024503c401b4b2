import { ConsoleActor } from '../access';
import { html } from '../html';
import { WorkspaceContext, csrf, empty, layout, pill, when } from './layout';

export interface KeyRow {
  id: string;
  name: string | null;
  hint: string;
  createdAt: string;
  revokedAt: string | null;
  lastUsedAt: string | null;
}

/** Recorded to the minute (a background write, not one per request), so shown to the minute. */
const lastUsed = (iso: string | null) =>
  iso
    ? html`<time datetime="${iso}">${iso.slice(0, 16).replace('T', ' ')} UTC</time>`
    : html`<span class="muted">Never</span>`;

export function keysPage(
  actor: ConsoleActor,
  w: WorkspaceContext,
  keys: KeyRow[],
  created?: { key: string; id: string; name: string | null },
  notice?: string,
) {
  const base = `/console/w/${w.id}/keys`;
  return layout({
    title: 'API keys',
    actor,
    workspace: w,
    section: 'keys',
    notice,
    body: html`<div class="head">
        <div>
          <h1>API keys</h1>
          <p class="lead">
            Keys call <code>/v1</code> from your servers. They are shown once, when created; keep them out of browsers.
          </p>
        </div>
      </div>
      ${
        w.canWrite
          ? html`<section class="card">
              <h2>New API key</h2>
              <form method="post" action="${base}" class="filters">
                ${csrf(actor)}
                <div class="field grow">
                  <label for="key-name"
                    >Name <span class="hint">(optional: where it is used, e.g. production)</span></label
                  ><input id="key-name" name="name" type="text" maxlength="100" autocomplete="off" />
                </div>
                <button type="submit">Create API key</button>
              </form>
            </section>`
          : ''
      }
      ${
        created
          ? html`<div class="secret" role="status">
              <strong>Your new API key${created.name ? html` “${created.name}”` : ''}</strong> — copy it now, it will
              not be shown again. <code id="new-key">${created.key}</code
              ><button type="button" class="secondary" data-copy="new-key" hidden>Copy</button>
            </div>`
          : ''
      }
      ${
        keys.length
          ? html`<div class="table-wrap">
              <table>
                <thead>
                  <tr>
                    <th scope="col">Key</th>
                    <th scope="col">Status</th>
                    <th scope="col">Created</th>
                    <th scope="col">Last used</th>
                    <th scope="col">Revoked</th>
                    <th scope="col"><span class="skip">Actions</span></th>
                  </tr>
                </thead>
                <tbody>
                  ${keys.map(
                    (k) =>
                      html`<tr>
                        <td>
                          ${k.name ? html`<strong>${k.name}</strong><br />` : html`<span class="muted">Unnamed</span><br />`}
                          <code>${k.hint}</code> <code class="muted">${k.id}</code>
                        </td>
                        <td>${pill(k.revokedAt ? 'revoked' : 'active')}</td>
                        <td>${when(k.createdAt)}</td>
                        <td>${lastUsed(k.lastUsedAt)}</td>
                        <td>${when(k.revokedAt)}</td>
                        <td>
                          ${
                            w.canWrite && !k.revokedAt
                              ? html`<a class="button danger" href="${base}/${k.id}/revoke">Revoke…</a>`
                              : ''
                          }
                        </td>
                      </tr>`,
                  )}
                </tbody>
              </table>
            </div>`
          : empty(
              'No API keys',
              w.canWrite
                ? 'Create one to call the API from your backend.'
                : 'A member of this workspace can create one.',
            )
      }`,
  });
}

/** Revoking breaks every caller of the key at once (production included): a page asks first, and says when it was last used. */
export function revokeKeyPage(actor: ConsoleActor, w: WorkspaceContext, key: KeyRow, activeKeys: number) {
  const base = `/console/w/${w.id}/keys`;
  return layout({
    title: 'Revoke API key',
    actor,
    workspace: w,
    section: 'keys',
    body: html`<section class="card error-card">
      <h1>Revoke ${key.name ? html`“${key.name}”, ` : ''}the key ending <code>${key.hint}</code>?</h1>
      <p class="lead">
        Every call with it is refused from now on; this cannot be undone. It was last used: ${lastUsed(key.lastUsedAt)}.
        ${activeKeys <= 1 ? html`<strong>It is this workspace's only active key.</strong>` : ''}
      </p>
      <form method="post" action="${base}/${key.id}/revoke" class="actions">
        ${csrf(actor)}<button type="submit" class="danger">Revoke key ending ${key.hint}</button
        ><a href="${base}">Cancel</a>
      </form>
    </section>`,
  });
}
