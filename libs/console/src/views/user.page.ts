import { ConsoleActor } from '../access';
import { UserRow } from '../console-user-admin.store';
import { html } from '../html';
import { csrf, layout, when } from './layout';
import { Choice, roleSelect, status, workspaceSelect } from './user-fields';

export function userPage(
  actor: ConsoleActor,
  u: UserRow,
  choices: Choice[],
  notice?: string,
  oneTimePassword?: string,
) {
  const base = `/console/users/${u.id}`;
  const self = u.id === actor.user.id;
  const addable = choices.filter((c) => !u.workspaces.some((w) => w.id === c.id));
  return layout({
    title: u.email,
    actor,
    section: 'users',
    notice,
    body: html`<div class="head">
        <div>
          <p class="muted"><a href="/console/users">Users</a> /</p>
          <h1>${u.email}</h1>
          <p class="lead">
            ${u.name ?? ''} ${status(u)} ${u.operator ? html`<span class="badge">operator</span>` : ''}
          </p>
        </div>
      </div>
      <div class="grid">
        <section class="card">
          <h2>Account</h2>
          <dl class="facts">
            <dt>Id</dt>
            <dd><code>${u.id}</code></dd>
            <dt>Password</dt>
            <dd>${u.hasPassword ? 'set' : 'none (single sign-on only)'}</dd>
            <dt>Single sign-on</dt>
            <dd>${u.ssoLinked ? 'linked' : 'not linked (links on the first SSO sign-in with this email)'}</dd>
            <dt>Last sign-in</dt>
            <dd>${u.lastSignInAt ? when(u.lastSignInAt) : 'never'}</dd>
            <dt>Created</dt>
            <dd>${when(u.createdAt)}</dd>
          </dl>
          ${
            oneTimePassword
              ? html`<div class="secret" role="status">
                  <strong>${u.email} has a new password; their sessions are signed out.</strong> It is shown once: hand
                  it over safely. <code id="new-password">${oneTimePassword}</code
                  ><button type="button" class="secondary" data-copy="new-password" hidden>Copy</button>
                </div>`
              : ''
          }
          ${
            self
              ? html`<p><a href="/console/account">Change your password</a> on Your account.</p>`
              : html`<form method="post" action="${base}/reset-password" class="actions">
                    ${csrf(actor)}<button type="submit" class="secondary">Reset password</button>
                  </form>
                  <p class="hint">
                    Sets a one-time password, shown once here, and signs the user out of every browser.
                  </p>`
          }
        </section>
        <section class="card">
          <h2>Access</h2>
          <form method="post" action="${base}/role" class="filters">
            ${csrf(actor)}
            <div class="field">
              <label for="operator">Console role</label>
              <select id="operator" name="operator">
                <option value="yes" ${u.operator ? html`selected` : ''}>Operator: every workspace</option>
                <option value="no" ${u.operator ? '' : html`selected`}>The workspaces below only</option>
              </select>
            </div>
            <button type="submit" class="secondary">Save role</button>
          </form>
          <div class="actions">
            ${
              u.disabled
                ? html`<form method="post" action="${base}/enable">
                    ${csrf(actor)}<button type="submit">Enable user</button>
                  </form>`
                : self
                  ? ''
                  : html`<form method="post" action="${base}/disable">
                      ${csrf(actor)}<button type="submit" class="danger">Disable user</button>
                    </form>`
            }
            <form method="post" action="${base}/sign-out-everywhere">
              ${csrf(actor)}<button type="submit" class="secondary">Sign out everywhere</button>
            </form>
          </div>
          <p class="hint">Disabling ends every session of the user at once and refuses their sign-ins until enabled.</p>
        </section>
      </div>
      <section class="card">
        <h2>Workspaces</h2>
        ${
          u.workspaces.length
            ? html`<div class="table-wrap">
                <table>
                  <thead>
                    <tr>
                      <th scope="col">Workspace</th>
                      <th scope="col">Role</th>
                      <th scope="col"><span class="skip">Actions</span></th>
                    </tr>
                  </thead>
                  <tbody>
                    ${u.workspaces.map(
                      (w) =>
                        html`<tr>
                          <td><a href="/console/w/${w.id}">${w.name}</a><br /><code class="muted">${w.id}</code></td>
                          <td>
                            <form method="post" action="${base}/memberships" class="actions">
                              ${csrf(actor)}<input type="hidden" name="workspaceId" value="${w.id}" />
                              <label class="skip" for="role-${w.id}">Role in ${w.name}</label>
                              ${roleSelect(`role-${w.id}`, w.role)}
                              <button type="submit" class="secondary">Save</button>
                            </form>
                          </td>
                          <td>
                            <form method="post" action="${base}/memberships/${w.id}/remove" class="inline">
                              ${csrf(actor)}<button type="submit" class="danger" aria-label="Remove from ${w.name}">
                                Remove
                              </button>
                            </form>
                          </td>
                        </tr>`,
                    )}
                  </tbody>
                </table>
              </div>`
            : html`<p class="muted">
                ${u.operator ? 'Operators see every workspace without a membership.' : 'Not in any workspace yet: add one below, or the user sees nothing.'}
              </p>`
        }
        ${
          addable.length
            ? html`<form method="post" action="${base}/memberships" class="filters">
                ${csrf(actor)}
                <div class="field">
                  <label for="add-workspace">Add to workspace</label>
                  ${workspaceSelect('add-workspace', addable, false)}
                </div>
                <div class="field">
                  <label for="add-role">Role</label>
                  ${roleSelect('add-role')}
                </div>
                <button type="submit">Add</button>
              </form>`
            : ''
        }
      </section>`,
  });
}
