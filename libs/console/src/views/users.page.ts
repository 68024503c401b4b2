import { ConsoleActor, WORKSPACE_ROLES } from '../access';
import { UserRow } from '../console-user-admin.store';
import { Html, html } from '../html';
import { csrf, layout, pill, when } from './layout';

type Choice = { id: string; name: string };

const workspaceSelect = (id: string, choices: Choice[], optional: boolean) =>
  html`<select id="${id}" name="workspaceId" ${optional ? '' : html`required`}>
    ${optional ? html`<option value="">No workspace (operators see all)</option>` : ''}
    ${choices.map((w) => html`<option value="${w.id}">${w.name} (${w.id})</option>`)}
  </select>`;

const roleSelect = (id: string, selected: string = 'member') =>
  html`<select id="${id}" name="role">
    ${WORKSPACE_ROLES.map(
      (r) =>
        html`<option value="${r}" ${r === selected ? html`selected` : ''}>
          ${r === 'member' ? 'member (can change things)' : 'viewer (read-only)'}
        </option>`,
    )}
  </select>`;

const roleOf = (u: UserRow): Html =>
  u.operator
    ? html`<span class="badge">operator</span>`
    : u.workspaces.length
      ? html`workspace roles`
      : html`<span class="muted">no workspace</span>`;

const status = (u: UserRow) => pill(u.disabled ? 'disabled' : 'active');

export function usersPage(
  actor: ConsoleActor,
  users: UserRow[],
  choices: Choice[],
  created?: { email: string; id: string; password?: string },
) {
  return layout({
    title: 'Users',
    actor,
    section: 'users',
    body: html`<div class="head">
        <div>
          <h1>Users</h1>
          <p class="lead">
            Who can sign in to this console. Operators see every workspace, the cluster and this page; members change
            things in their workspaces; viewers only look.
          </p>
        </div>
      </div>
      ${
        created
          ? html`<div class="secret" role="status">
              <strong>${created.email} can sign in now.</strong>
              ${
                created.password
                  ? html` Their initial password is shown once: hand it over safely.
                      <code id="new-password">${created.password}</code
                      ><button type="button" class="secondary" data-copy="new-password" hidden>Copy</button>`
                  : ' They sign in with the password you set.'
              }
              <a href="/console/users/${created.id}">Open ${created.email}</a>
            </div>`
          : ''
      }
      <section class="card">
        <h2>New user</h2>
        <form method="post" action="/console/users">
          ${csrf(actor)}
          <div class="grid">
            <div class="field">
              <label for="u-email">Email</label>
              <input id="u-email" name="email" type="email" required maxlength="254" autocomplete="off" />
            </div>
            <div class="field">
              <label for="u-name">Name <span class="hint">(optional)</span></label>
              <input id="u-name" name="name" type="text" maxlength="200" autocomplete="off" />
            </div>
            <div class="field">
              <label for="u-password"
                >Initial password <span class="hint">(blank: one is generated and shown once)</span></label
              >
              <input id="u-password" name="password" type="password" minlength="10" autocomplete="new-password" />
            </div>
          </div>
          <div class="grid">
            <div class="field">
              <label for="u-workspace">Workspace</label>
              ${workspaceSelect('u-workspace', choices, true)}
            </div>
            <div class="field">
              <label for="u-role">Role in that workspace</label>
              ${roleSelect('u-role')}
            </div>
            <div class="field">
              <label for="u-operator">Operator</label>
              <select id="u-operator" name="operator">
                <option value="no">No: only the workspace above</option>
                <option value="yes">Yes: every workspace, the cluster and users</option>
              </select>
            </div>
          </div>
          <button type="submit">Create user</button>
        </form>
      </section>
      <div class="table-wrap">
        <table>
          <thead>
            <tr>
              <th scope="col">User</th>
              <th scope="col">Role</th>
              <th scope="col">Workspaces</th>
              <th scope="col">Sign-in</th>
              <th scope="col">Last sign-in</th>
              <th scope="col">Status</th>
            </tr>
          </thead>
          <tbody>
            ${users.map(
              (u) =>
                html`<tr>
                  <td>
                    <a href="/console/users/${u.id}">${u.email}</a
                    >${u.name ? html`<br /><span class="muted">${u.name}</span>` : ''}
                  </td>
                  <td>${roleOf(u)}</td>
                  <td>
                    ${
                      u.workspaces.length
                        ? u.workspaces.map((w) => html`<div>${w.name} ${pill(w.role)}</div>`)
                        : html`<span class="muted">—</span>`
                    }
                  </td>
                  <td>
                    ${[u.hasPassword ? 'password' : '', u.ssoLinked ? 'SSO linked' : ''].filter(Boolean).join(', ') || '—'}
                  </td>
                  <td>${u.lastSignInAt ? when(u.lastSignInAt) : html`<span class="muted">Never</span>`}</td>
                  <td>${status(u)}</td>
                </tr>`,
            )}
          </tbody>
        </table>
      </div>`,
  });
}

export function userPage(actor: ConsoleActor, u: UserRow, choices: Choice[], notice?: string) {
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
