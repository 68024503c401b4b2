import { ConsoleActor } from '../access';
import { UserRow } from '../console-user-admin.store';
import { html } from '../html';
import type { FormProblems } from '../forms/form-problems';
import { problemsOf } from './form-fields';
import { csrf, layout, pager, pill, when } from './layout';
import { Choice, roleOf, roleSelect, status, workspaceSelect } from './user-fields';

/** The new-user form sent back with what was typed (never the password) and its problems. */
export interface NewUserForm {
  email: string;
  name: string;
  workspaceId: string;
  role: string;
  operator: boolean;
  problems: FormProblems;
}

/** One page of users (by email), with the keyset pager's links. */
export interface UsersPageOf {
  users: UserRow[];
  next?: string;
  first?: string;
}

export function usersPage(
  actor: ConsoleActor,
  list: UsersPageOf,
  choices: Choice[],
  created?: { email: string; id: string; password?: string },
  form?: NewUserForm,
) {
  const { users } = list;
  const problems = problemsOf(form?.problems, 'u');
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
        ${problems.above()}
        <form method="post" action="/console/users">
          ${csrf(actor)}
          <div class="grid">
            <div class="field">
              <label for="u-email">Email</label>
              <input
                id="u-email"
                name="email"
                type="email"
                required
                maxlength="254"
                autocomplete="off"
                value="${form?.email ?? ''}"
                ${problems.attrs('email')}
              />
              ${problems.under('email')}
            </div>
            <div class="field">
              <label for="u-name">Name <span class="hint">(optional)</span></label>
              <input
                id="u-name"
                name="name"
                type="text"
                maxlength="200"
                autocomplete="off"
                value="${form?.name ?? ''}"
              />
            </div>
            <div class="field">
              <label for="u-password"
                >Initial password <span class="hint">(blank: one is generated and shown once)</span></label
              >
              <input
                id="u-password"
                name="password"
                type="password"
                minlength="10"
                autocomplete="new-password"
                ${problems.attrs('password')}
              />
              ${problems.under('password')}
            </div>
          </div>
          <div class="grid">
            <div class="field">
              <label for="u-workspace">Workspace</label>
              ${workspaceSelect('u-workspace', choices, true, form?.workspaceId, problems.attrs('workspaceId'))}
              ${problems.under('workspaceId')}
            </div>
            <div class="field">
              <label for="u-role">Role in that workspace</label>
              ${roleSelect('u-role', form?.role)}
            </div>
            <div class="field">
              <label for="u-operator">Operator</label>
              <select id="u-operator" name="operator">
                <option value="no">No: only the workspace above</option>
                <option value="yes" ${form?.operator ? html`selected` : ''}>
                  Yes: every workspace, the cluster and users
                </option>
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
      </div>
      ${pager({ first: list.first, next: list.next })}`,
  });
}
