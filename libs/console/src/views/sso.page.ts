import { html } from '../html';
import { layout } from './layout';

/** A single sign-on that did not complete: what happened, and the ways to go on. */
export function ssoErrorPage(o: { title: string; message: string; status: number; ssoName?: string }) {
  return layout({
    title: o.title,
    body: html`<section class="card signin error-card" role="alert">
      <h1>${o.title}</h1>
      <p class="lead">${o.message}</p>
      <p class="muted">HTTP ${o.status}</p>
      <div class="actions">
        <a class="button" href="/console/sign-in">Back to sign-in</a>
        ${o.ssoName ? html`<a class="button secondary" href="/console/sso/start">Try ${o.ssoName} again</a>` : ''}
      </div>
    </section>`,
  });
}
