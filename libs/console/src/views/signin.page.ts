import { html } from '../html';
import { layout } from './layout';

export interface SignInOptions {
  formToken: string;
  next: string;
  error?: string;
  email?: string;
  setupAvailable: boolean;
  notice?: string;
  /** Why the user is here (their session ended; a form was not saved): shown in the card, above the form. */
  warning?: string;
  /** Single sign-on, when configured: the button's name and where it starts. */
  sso?: { name: string; href: string };
}

export function signInPage(o: SignInOptions) {
  return layout({
    title: 'Sign in',
    notice: o.notice,
    body: html`<section class="card signin">
      <h1>Sign in</h1>
      <p class="lead">to the Custom Domains console</p>
      ${o.error ? html`<div class="notice bad error-card" role="alert">${o.error}</div>` : ''}
      ${o.warning && !o.error ? html`<div class="notice bad" role="status">${o.warning}</div>` : ''}
      ${
        o.sso
          ? html`<p><a class="button sso" href="${o.sso.href}">Sign in with ${o.sso.name}</a></p>
              <p class="muted or">or with your console password</p>`
          : ''
      }
      <form method="post" action="/console/sign-in">
        <input type="hidden" name="_signin" value="${o.formToken}" />
        <input type="hidden" name="next" value="${o.next}" />
        <div class="field">
          <label for="email">Email</label>
          <input id="email" name="email" type="email" autocomplete="username" required value="${o.email ?? ''}" />
        </div>
        <div class="field">
          <label for="password">Password</label>
          <input id="password" name="password" type="password" autocomplete="current-password" required />
        </div>
        <button type="submit">Sign in</button>
      </form>
      ${
        o.setupAvailable
          ? html`<hr />
              <p class="muted">
                No console user exists yet. <a href="/console/setup">Create the first operator</a> with the admin token
                the server printed at start.
              </p>`
          : ''
      }
    </section>`,
  });
}

export function setupPage(o: { formToken: string; error?: string; email?: string }) {
  return layout({
    title: 'Create the first operator',
    body: html`<section class="card signin">
      <h1>Create the first operator</h1>
      <p class="lead">
        Operators see every workspace, the cluster and the users. Prove you run this server with its admin token
        (printed in the start banner, or <code>$DATA_DIR/admin-token</code>).
      </p>
      ${o.error ? html`<div class="notice bad" role="alert">${o.error}</div>` : ''}
      <form method="post" action="/console/setup">
        <input type="hidden" name="_signin" value="${o.formToken}" />
        <div class="field">
          <label for="adminToken">Admin token</label>
          <input id="adminToken" name="adminToken" type="password" autocomplete="off" required />
        </div>
        <div class="field">
          <label for="email">Your email</label>
          <input id="email" name="email" type="email" autocomplete="username" required value="${o.email ?? ''}" />
        </div>
        <div class="field">
          <label for="password">Password <span class="hint">(at least 10 characters)</span></label>
          <input id="password" name="password" type="password" autocomplete="new-password" minlength="10" required />
        </div>
        <button type="submit">Create operator and sign in</button>
      </form>
    </section>`,
  });
}
