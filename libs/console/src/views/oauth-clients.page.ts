import type { OAuthClientView } from '@app/oauth';
import { ConsoleActor } from '../access';
import { html } from '../html';
import { WorkspaceContext, csrf, empty, layout, pill, revokeForm, when } from './layout';

export interface IssuedClient {
  clientId: string;
  secret: string;
}

export function oauthClientsPage(
  actor: ConsoleActor,
  w: WorkspaceContext,
  clients: OAuthClientView[],
  scopes: readonly string[],
  options: { issued?: IssuedClient; notice?: string; problem?: string } = {},
) {
  const base = `/console/w/${w.id}/oauth-clients`;
  return layout({
    title: 'OAuth clients',
    actor,
    workspace: w,
    section: 'oauth',
    notice: options.notice,
    body: html`<div class="head">
        <div>
          <h1>OAuth clients</h1>
          <p class="lead">
            Apps that get short-lived tokens with the client credentials grant (<code>POST /oauth/token</code>), limited
            to the scopes chosen here. The secret is shown once, when registered.
          </p>
        </div>
      </div>
      ${
        options.issued
          ? html`<div class="secret" role="status">
              <strong>Your new client</strong> — copy the secret now, it will not be shown again. <br /><span
                class="muted"
                >Client id</span
              >
              <code id="client-id">${options.issued.clientId}</code> <span class="muted">Client secret</span>
              <code id="client-secret">${options.issued.secret}</code
              ><button type="button" class="secondary" data-copy="client-secret" hidden>Copy secret</button>
            </div>`
          : ''
      }
      ${
        w.canWrite
          ? html`<section class="card">
              <h2>Register a client</h2>
              ${options.problem ? html`<p class="field-problem" role="alert">${options.problem}</p>` : ''}
              <form method="post" action="${base}">
                ${csrf(actor)}
                <div class="field">
                  <label for="client-name">Name</label
                  ><input
                    id="client-name"
                    name="name"
                    type="text"
                    required
                    maxlength="200"
                    placeholder="Billing sync"
                  />
                </div>
                <fieldset class="field scopes">
                  <legend>Scopes <span class="hint">(the most its tokens may carry)</span></legend>
                  ${scopes.map(
                    (s) =>
                      html`<label class="inline-check"
                        ><input type="checkbox" name="scopes" value="${s}" /> ${s}</label
                      >`,
                  )}
                </fieldset>
                <button type="submit">Register client</button>
              </form>
            </section>`
          : ''
      }
      ${
        clients.length
          ? html`<div class="table-wrap">
              <table>
                <thead>
                  <tr>
                    <th scope="col">Name</th>
                    <th scope="col">Client id</th>
                    <th scope="col">Scopes</th>
                    <th scope="col">Status</th>
                    <th scope="col">Created</th>
                    <th scope="col"><span class="skip">Actions</span></th>
                  </tr>
                </thead>
                <tbody>
                  ${clients.map(
                    (c) =>
                      html`<tr>
                        <td>${c.name}</td>
                        <td><code>${c.clientId}</code></td>
                        <td>${c.scopes.map((s) => html`<code>${s}</code> `)}</td>
                        <td>
                          ${pill(c.revokedAt ? 'revoked' : 'active')}${c.revokedAt ? html`<br /><span class="muted">${when(c.revokedAt)}</span>` : ''}
                        </td>
                        <td>${when(c.createdAt)}</td>
                        <td>
                          ${
                            w.canWrite && !c.revokedAt
                              ? revokeForm(actor, `${base}/${c.clientId}/revoke`, `Revoke client ${c.name}`)
                              : ''
                          }
                        </td>
                      </tr>`,
                  )}
                </tbody>
              </table>
            </div>`
          : empty(
              'No OAuth clients',
              w.canWrite
                ? 'Register one above for an app that should get tokens instead of holding an API key.'
                : 'A member of this workspace can register one.',
            )
      }`,
  });
}
