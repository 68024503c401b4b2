import { ConsoleActor } from '../access';
import type { FormProblems } from '../forms/form-problems';
import { MIN_PASSWORD_LENGTH } from '../forms/password-policy';
import { html } from '../html';
import { problemsOf } from './form-fields';
import { csrf, layout } from './layout';

/** The signed-in user's own account: who they are, and a password change (current, then new). */
export function accountPage(actor: ConsoleActor, notice?: string, problems?: FormProblems) {
  const p = problemsOf(problems, 'pw');
  return layout({
    title: 'Your account',
    actor,
    notice,
    body: html`<div class="head">
        <div>
          <h1>Your account</h1>
          <p class="lead">${actor.user.email}${actor.user.name ? html` · ${actor.user.name}` : ''}</p>
        </div>
      </div>
      <section class="card">
        <h2>Change your password</h2>
        ${p.above()}
        <form method="post" action="/console/account/password">
          ${csrf(actor)}
          <input type="hidden" name="username" value="${actor.user.email}" autocomplete="username" />
          <div class="field">
            <label for="pw-current">Current password</label>
            <input
              id="pw-current"
              name="currentPassword"
              type="password"
              autocomplete="current-password"
              required
              ${p.attrs('currentPassword')}
            />
            ${p.under('currentPassword')}
          </div>
          <div class="field">
            <label for="pw-new"
              >New password <span class="hint">(at least ${MIN_PASSWORD_LENGTH} characters)</span></label
            >
            <input
              id="pw-new"
              name="password"
              type="password"
              autocomplete="new-password"
              minlength="${MIN_PASSWORD_LENGTH}"
              required
              ${p.attrs('password')}
            />
            ${p.under('password')}
          </div>
          <button type="submit">Change password</button>
        </form>
        <p class="hint">Your other browsers are signed out; this one stays signed in.</p>
      </section>`,
  });
}
