import { ConsoleActor } from '../access';
import { Html, html } from '../html';

export interface WorkspaceContext {
  id: string;
  name: string;
  canWrite: boolean;
}

type Section =
  | 'workspaces'
  | 'overview'
  | 'domains'
  | 'purchases'
  | 'keys'
  | 'oauth'
  | 'webhooks'
  | 'events'
  | 'audit'
  | 'cluster'
  | 'users'
  | 'search';

export interface LayoutOptions {
  title: string;
  actor?: ConsoleActor;
  workspace?: WorkspaceContext;
  section?: Section;
  notice?: string;
  body: Html;
}

const navLink = (href: string, label: string, active: boolean) =>
  html`<a href="${href}" ${active ? html` aria-current="page"` : ''}>${label}</a>`;

/** The console's links: the sidebar on a wide screen, the menu on a phone. */
function navLinks(options: LayoutOptions): Html {
  const { actor, workspace, section } = options;
  if (!actor) return html``;
  const w = workspace ? `/console/w/${workspace.id}` : '';
  return html`<p class="side-group">Console</p>
    ${navLink('/console/workspaces', 'Workspaces', section === 'workspaces')}
    ${actor.user.operator ? navLink('/console/cluster', 'Cluster', section === 'cluster') : ''}
    ${actor.user.operator ? navLink('/console/users', 'Users', section === 'users') : ''}
    ${actor.user.operator ? navLink('/console/search', 'Find a hostname', section === 'search') : ''}
    ${navLink('/console/audit', 'Audit log', section === 'audit' && !workspace)}
    ${
      workspace
        ? html`<p class="side-group" title="${workspace.id}">${workspace.name}</p>
            ${navLink(w, 'Overview', section === 'overview')}
            ${navLink(`${w}/domains`, 'Domains', section === 'domains')}
            ${navLink(`${w}/purchases`, 'Purchases', section === 'purchases')}
            ${navLink(`${w}/keys`, 'API keys', section === 'keys')}
            ${navLink(`${w}/oauth-clients`, 'OAuth clients', section === 'oauth')}
            ${navLink(`${w}/webhooks`, 'Webhooks', section === 'webhooks')}
            ${navLink(`${w}/audit`, 'Audit log', section === 'audit')}`
        : ''
    }`;
}

function nav(options: LayoutOptions): Html {
  if (!options.actor) return html``;
  return html`<nav class="side" aria-label="Console">${navLinks(options)}</nav>`;
}

/** Below 640 px the sidebar and the account links fold into one menu (a details element: no script). */
function phoneMenu(options: LayoutOptions): Html {
  const { actor } = options;
  if (!actor) return html``;
  return html`<details class="phone-menu">
    <summary>Menu</summary>
    <nav class="menu-panel" aria-label="Console menu">
      ${navLinks(options)}
      <p class="side-group">${actor.user.email}</p>
      ${signOutForms(actor)}
    </nav>
  </details>`;
}

const signOutForms = (actor: ConsoleActor) =>
  html`<a class="link" href="/console/account">Your account</a>
    <form method="post" action="/console/sign-out">${csrf(actor)}<button class="link">Sign out</button></form>
    <form method="post" action="/console/sign-out-everywhere">
      ${csrf(actor)}<button class="link">Sign out everywhere</button>
    </form>`;

/** A hidden CSRF field: every console form that changes something carries it. */
export const csrf = (actor: ConsoleActor) => html`<input type="hidden" name="_csrf" value="${actor.csrfToken}" />`;

/** The "Revoke" button of a list row: a one-button form, its label naming what it revokes. */
export const revokeForm = (actor: ConsoleActor, action: string, label: string) =>
  html`<form method="post" action="${action}" class="inline">
    ${csrf(actor)}<button class="danger" type="submit" aria-label="${label}">Revoke</button>
  </form>`;

export function layout(options: LayoutOptions): Html {
  const { actor } = options;
  return html`<!doctype html>
    <html lang="en">
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <title>${options.title} · Custom Domains console</title>
        <link rel="stylesheet" href="/console/assets/console.css" />
        <script src="/console/assets/console.js" defer></script>
      </head>
      <body>
        <a class="skip" href="#main">Skip to content</a>
        <header class="top">
          <a class="brand" href="/console">◆ Custom Domains <span>console</span></a>
          ${
            actor
              ? html`<div class="who">
                  <span
                    >${actor.user.email}${actor.user.operator ? html` <span class="badge">operator</span>` : ''}</span
                  >
                  ${signOutForms(actor)}
                </div>`
              : ''
          }
          ${phoneMenu(options)}
        </header>
        <div class="frame${actor ? '' : ' bare'}">
          ${nav(options)}
          <main id="main">
            ${options.notice ? html`<div class="notice" role="status">${options.notice}</div>` : ''} ${options.body}
          </main>
        </div>
      </body>
    </html>`;
}

/** The keyset pager under a list: back to the first page when paged, on when there is more. */
export const pager = (links: { first?: string; next?: string | null }) =>
  html`<div class="pager">
    ${links.first ? html`<a class="button secondary" href="${links.first}">First page</a>` : ''}
    ${links.next ? html`<a class="button secondary" href="${links.next}">Next page →</a>` : ''}
  </div>`;

/** A filtered list's query string: the filters that are set, then the cursor (`''` when neither is). */
function listQuery(filters: object, cursor?: string | null): string {
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries(filters)) if (v) params.set(k, String(v));
  if (cursor) params.set('cursor', cursor);
  const text = params.toString();
  return text ? `?${text}` : '';
}

/** The pager of a filtered list at `base`: its first page and its next one keep the filters. */
export const listPager = (base: string, filters: object, nextCursor: string | null, paged: boolean) =>
  pager({
    first: paged ? `${base}${listQuery(filters)}` : undefined,
    next: nextCursor && `${base}${listQuery(filters, nextCursor)}`,
  });

/** A small "nothing here yet" panel that says what to do next. */
export const empty = (title: string, next: Html | string) =>
  html`<div class="empty">
    <p class="empty-title">${title}</p>
    <p>${next}</p>
  </div>`;

/** The empty panel of a filtered list at `base` whose filters match no `noun`: a link clears them. */
export const noneMatching = (base: string, noun: string) =>
  empty(`No ${noun} matches these filters`, html`<a href="${base}">Clear the filters</a> to see every ${noun}.`);

export const when = (iso: string | null | undefined) =>
  iso
    ? html`<time datetime="${iso}"
        >${iso
          .replace('T', ' ')
          .replace(/\.\d+Z$/, ' UTC')
          .replace(/Z$/, ' UTC')}</time
      >`
    : '—';

const TONES: Record<string, string> = {
  verified: 'ok',
  active: 'ok',
  delivered: 'ok',
  completed: 'ok',
  refunded: 'neutral',
  renewed: 'ok',
  on: 'ok',
  off: 'neutral',
  on_time: 'ok',
  behind: 'bad',
  member: 'ok',
  enabled: 'ok',
  pending: 'wait',
  pending_dns: 'wait',
  pending_ssl: 'wait',
  dns_not_resolving: 'wait',
  active_ssl: 'ok',
  dns_incorrect: 'bad',
  target_not_loading: 'bad',
  ssl_expired: 'bad',
  issuing: 'wait',
  viewer: 'wait',
  failed: 'bad',
  expired: 'bad',
  dead_lettered: 'bad',
  ssl_failed: 'bad',
  dns_misconfigured: 'bad',
  revoked: 'bad',
  disabled: 'bad',
};

export const pill = (value: string) =>
  html`<span class="pill ${TONES[value] ?? 'neutral'}">${value.replace(/_/g, ' ')}</span>`;
