import { customerCertificate } from '@app/connect-sessions';
import { DOMAIN_STATUSES, type DomainView, MONITOR_STATUSES, type TakeoverGuard } from '@app/domains';
import type { HostnameCheckView } from '@app/tools';
import { ConsoleActor } from '../access';
import { Html, html } from '../html';
import type { FormProblems } from '../forms/form-problems';
import { problemsOf } from './form-fields';
import { WorkspaceContext, csrf, empty, layout, listPager, noneMatching, pill, when } from './layout';
import { DnsHistory, dnsFact, factHtml, liveFact } from './domain-live.view';
import { ManagedDns, managedCustomerLine, managedNote } from './managed-dns.view';

export interface DomainFilters {
  status?: string;
  monitorStatus?: string;
  q?: string;
  projectId?: string;
}

const option = (value: string, selected: string | undefined, label = value.replace(/_/g, ' ')) =>
  html`<option value="${value}" ${value === selected ? html` selected` : ''}>${label}</option>`;

/** The connect form sent back with what was typed and its problems; `existing`: the domain already holding the hostname here. */
export interface ConnectForm {
  hostname: string;
  originUrl: string;
  problems: FormProblems;
  existing?: { id: string; hostname: string };
}

export function domainsPage(
  actor: ConsoleActor,
  w: WorkspaceContext,
  domains: DomainView[],
  filters: DomainFilters,
  nextCursor: string | null,
  paged: boolean,
  notice?: string,
  form?: ConnectForm,
) {
  const base = `/console/w/${w.id}/domains`;
  const problems = problemsOf(form?.problems, 'new');
  const filtered = Object.values(filters).some(Boolean);
  return layout({
    title: 'Domains',
    actor,
    workspace: w,
    section: 'domains',
    notice,
    body: html`<div class="head">
        <div>
          <h1>Domains</h1>
          <p class="lead">Your customers' hostnames, their DNS and certificates.</p>
        </div>
      </div>
      ${
        w.canWrite
          ? html`<section class="card">
              <h2>Connect a domain</h2>
              ${problems.above(
                form?.existing
                  ? html`<a href="${base}/${form.existing.id}">Open ${form.existing.hostname}</a>`
                  : undefined,
              )}
              <form method="post" action="${base}" class="filters">
                ${csrf(actor)}
                <div class="field">
                  <label for="new-hostname">Hostname</label
                  ><input
                    id="new-hostname"
                    name="hostname"
                    type="text"
                    required
                    maxlength="253"
                    placeholder="shop.customer.com"
                    value="${form?.hostname ?? ''}"
                    ${problems.attrs('hostname')}
                  />
                  ${problems.under('hostname')}
                </div>
                <div class="field grow">
                  <label for="new-origin">Origin URL <span class="hint">(where traffic goes)</span></label
                  ><input
                    id="new-origin"
                    name="originUrl"
                    type="url"
                    required
                    placeholder="https://app.example.com"
                    value="${form?.originUrl ?? ''}"
                    ${problems.attrs('originUrl')}
                  />
                  ${problems.under('originUrl')}
                </div>
                <button type="submit">Connect domain</button>
              </form>
            </section>`
          : ''
      }
      <form method="get" action="${base}" class="filters" role="search" aria-label="Filter domains">
        <div class="field">
          <label for="f-q">Hostname contains</label
          ><input id="f-q" name="q" type="search" value="${filters.q ?? ''}" placeholder="shop" />
        </div>
        <div class="field">
          <label for="f-status">Status</label
          ><select id="f-status" name="status">
            <option value="">any</option>
            ${DOMAIN_STATUSES.map((s) => option(s, filters.status))}
          </select>
        </div>
        <div class="field">
          <label for="f-monitor">Monitor</label
          ><select id="f-monitor" name="monitorStatus">
            <option value="">any</option>
            ${MONITOR_STATUSES.map((s) => option(s, filters.monitorStatus))}
          </select>
        </div>
        <div class="field">
          <label for="f-project">Project id</label
          ><input id="f-project" name="projectId" type="text" value="${filters.projectId ?? ''}" placeholder="prj_…" />
        </div>
        <button type="submit" class="secondary">Filter</button>
        ${filtered ? html`<a href="${base}">Clear filters</a>` : ''}
      </form>
      ${
        domains.length
          ? html`<div class="table-wrap">
                <table class="stack">
                  <thead>
                    <tr>
                      <th scope="col">Hostname</th>
                      <th scope="col">Status</th>
                      <th scope="col">Monitor</th>
                      <th scope="col">Origin</th>
                      <th scope="col">Last check</th>
                    </tr>
                  </thead>
                  <tbody>
                    ${domains.map(
                      (d) =>
                        html`<tr>
                          <td data-label="Hostname"><a href="${base}/${d.id}">${d.hostname}</a></td>
                          <td data-label="Status">${pill(d.status)}</td>
                          <td data-label="Monitor">
                            ${pill(d.monitorStatus)}<br /><span class="muted">${d.monitorMessage}</span>
                          </td>
                          <td data-label="Origin"><code>${d.originUrl}</code></td>
                          <td data-label="Last check">${when(d.lastCheckedAt)}</td>
                        </tr>`,
                    )}
                  </tbody>
                </table>
              </div>
              ${listPager(base, filters, nextCursor, paged)}`
          : filtered
            ? noneMatching(base, 'domain')
            : empty(
                'No domains yet',
                w.canWrite
                  ? 'Connect your first customer hostname above, or with POST /v1/domains from your backend.'
                  : 'A member of this workspace can connect one.',
              )
      }`,
  });
}

export interface TimelineItem {
  at: string;
  title: string;
  detail?: string;
  tone?: string;
}

export interface DomainDetail {
  domain: DomainView;
  check: HostnameCheckView | { error: string };
  timeline: TimelineItem[];
  /** `guessedBase`: PUBLIC_BASE_URL is unset, so the link uses the address the console was reached at. */
  connectLink?: { url: string; expiresAt: string; guessedBase?: string };
  /** The ACME CA certificates come from (the host of ACME_DIRECTORY_URL). */
  issuer: string;
  /** The monitor's memory of the hostname's DNS, for the DNS and Live lines. */
  dnsHistory: DnsHistory;
  /** Set for a deleted domain: its page is kept, read-only, for the record. */
  deletedAt?: string;
  /** A deleted domain whose DNS still pointed at the edge: its hostname is kept for this workspace a while. */
  takeoverGuard?: TakeoverGuard;
  /** Bought through us and on our registrar's DNS: we set the records up (its purchase). */
  managedDns?: ManagedDns;
  /** Refused settings sent back as typed, with their problems. */
  settingsForm?: { values: DomainSettings; problems: FormProblems };
}

/** The settings form's fields. */
interface DomainSettings {
  originUrl: string;
  mode: string;
  redirectStatus: number | string;
  keepHost: boolean;
  redirectWww: boolean;
}

/** Why a deleted domain's hostname is not free for everyone yet, and what the customer should do. */
function guardNotice(hostname: string, guard: TakeoverGuard): Html {
  const seen =
    guard.reason === 'dns_points_at_edge'
      ? 'its DNS still pointed at this service when it was deleted'
      : 'DNS did not answer when it was deleted, and it last pointed at this service';
  if (guard.releasedAt)
    return html`${seen}. Another workspace has since proved control of its DNS (${when(guard.releasedAt)}) and may
    connect it.`;
  return html`<strong>${seen}</strong>: visitors get a neutral "Site not found" page. Until ${when(guard.until)} only
    this workspace can connect ${hostname} again; another workspace must first prove control of its DNS. Ask the
    customer to remove the record that points ${hostname} at us (their DNS provider), or connect it again.`;
}

function recordsTable(d: DomainDetail): Html {
  if ('error' in d.check) {
    if (d.deletedAt) return html`<p class="muted">Not checked: the domain is deleted.</p>`;
    return html`<p class="muted">DNS could not be read just now: ${d.check.error}</p>`;
  }
  // Focusable: a wide value scrolls inside its box (stacked on a phone), and keyboards must reach it.
  return html`<div class="table-wrap" tabindex="0" role="region" aria-label="DNS records">
    <table class="stack">
      <thead>
        <tr>
          <th scope="col">Type</th>
          <th scope="col">Name</th>
          <th scope="col">Required value</th>
          <th scope="col">Observed now</th>
          <th scope="col">Match</th>
        </tr>
      </thead>
      <tbody>
        ${d.check.records.map(
          (r) =>
            html`<tr>
              <td data-label="Type">${r.type}</td>
              <td data-label="Name"><code>${r.name}</code></td>
              <td data-label="Required value"><code>${r.value}</code></td>
              <td data-label="Observed now">
                ${r.seen.length ? r.seen.map((s) => html`<code>${s}</code><br />`) : html`<span class="muted">nothing</span>`}${r.error ? html`<span class="muted">${r.error}</span>` : ''}
              </td>
              <td data-label="Match">
                ${pill(r.status === 'found' ? 'verified' : r.status === 'error' ? 'pending' : 'failed')}
              </td>
            </tr>`,
        )}
      </tbody>
    </table>
  </div>`;
}

export function domainPage(actor: ConsoleActor, workspace: WorkspaceContext, d: DomainDetail, notice?: string) {
  const { domain } = d;
  // A deleted domain is read, never acted on.
  const w = d.deletedAt ? { ...workspace, canWrite: false } : workspace;
  const base = `/console/w/${w.id}/domains/${domain.id}`;
  const shownSettings: DomainSettings = d.settingsForm?.values ?? domain;
  const settingsProblems = problemsOf(d.settingsForm?.problems, 's');
  return layout({
    title: domain.hostname,
    actor,
    workspace: w,
    section: 'domains',
    notice,
    body: html`<p><a href="/console/w/${w.id}/domains">← Domains</a></p>
      <div class="head">
        <div>
          <h1>${domain.hostname}</h1>
          <p class="lead">
            <code>${domain.id}</code> ·
            ${d.deletedAt ? html`<span class="pill bad">deleted</span>` : html`${pill(domain.status)} ${pill(domain.monitorStatus)}`}
          </p>
        </div>
        ${
          w.canWrite
            ? html`<div class="actions">
                <form method="post" action="${base}/check" class="inline">
                  ${csrf(actor)}<button type="submit">Check now</button>
                </form>
                <form method="post" action="${base}/connect-link" class="inline">
                  ${csrf(actor)}<button type="submit" class="secondary">Create connect link</button>
                </form>
                <a class="button secondary" href="${base}/delete">Delete…</a>
              </div>`
            : ''
        }
      </div>
      ${
        d.deletedAt
          ? html`<div class="notice bad" role="status">
              Deleted on ${when(d.deletedAt)}. This page shows the domain as it was, with its timeline, for the record;
              ${d.takeoverGuard ? guardNotice(domain.hostname, d.takeoverGuard) : 'the hostname is free to connect again.'}
            </div>`
          : ''
      }
      ${
        d.connectLink
          ? html`<div class="secret" role="status">
              <strong>Connect link for your customer</strong> — it opens the connect widget for this domain only, until
              ${when(d.connectLink.expiresAt)}. <code id="connect-link">${d.connectLink.url}</code
              ><button type="button" class="secondary" data-copy="connect-link" hidden>Copy</button>
              ${
                d.connectLink.guessedBase
                  ? html`<p class="field-problem">
                      PUBLIC_BASE_URL is not set, so this link uses the address you reached the console at
                      (<code>${d.connectLink.guessedBase}</code>); make sure your customer can open it, or ask your
                      operators to set PUBLIC_BASE_URL.
                    </p>`
                  : ''
              }
            </div>`
          : ''
      }
      <section class="card">
        <h2>What the customer sees</h2>
        <p class="lead flush">
          ${d.managedDns ? managedCustomerLine(domain.monitorStatus, customerCertificate(domain).monitorMessage) : customerCertificate(domain).monitorMessage}
        </p>
        ${d.managedDns ? managedNote(w.id, d.managedDns) : ''}
        ${domain.statusReason ? html`<p class="muted">Reason: ${domain.statusReason}</p>` : ''}
      </section>
      ${certificateAttempts(domain.certificate)}
      <section class="card">
        <h2>DNS records</h2>
        ${d.managedDns ? managedNote(w.id, d.managedDns) : ''} ${recordsTable(d)}
      </section>
      <div class="grid">
        <section class="card">
          <h2>Certificate</h2>
          <dl class="facts">
            <dt>Issuer</dt>
            <dd>
              ${domain.certificate.expiresAt ? html`<code>${d.issuer}</code>` : html`— (tries <code>${d.issuer}</code>)`}
            </dd>
            <dt>Expires</dt>
            <dd>${when(domain.certificate.expiresAt)}</dd>
            <dt>Renews</dt>
            <dd>${when(domain.certificate.renewAt)}</dd>
            <dt>Last error</dt>
            <dd>
              ${
                domain.certificate.error
                  ? html`${domain.certificate.errorCode ? html`<code>${domain.certificate.errorCode}</code> ` : ''}${domain.certificate.error}`
                  : '—'
              }
            </dd>
            <dt>Next try</dt>
            <dd>${when(domain.certificate.retryAt)}</dd>
            <dt>DNS</dt>
            <dd>${factHtml(dnsFact(domain, d.dnsHistory))}</dd>
            <dt>Live</dt>
            <dd>${factHtml(liveFact(domain, d.dnsHistory))}</dd>
            <dt>Last check</dt>
            <dd>${when(domain.lastCheckedAt)}</dd>
          </dl>
        </section>
        <section class="card">
          <h2>Settings</h2>
          ${settingsProblems.above()}
          <form method="post" action="${base}/settings">
            ${csrf(actor)}
            <div class="field">
              <label for="s-origin">Origin URL</label
              ><input
                id="s-origin"
                name="originUrl"
                type="url"
                value="${shownSettings.originUrl}"
                ${settingsProblems.attrs('originUrl')}
                required${w.canWrite ? '' : html` disabled`}
              />
              ${settingsProblems.under('originUrl')}
            </div>
            <div class="field">
              <label for="s-mode">Mode</label
              ><select id="s-mode" name="mode" ${w.canWrite ? '' : html` disabled`}>
                ${option('proxy', shownSettings.mode, 'proxy (serve the origin)')}${option('redirect', shownSettings.mode, 'redirect (to the origin URL)')}
              </select>
            </div>
            <div class="field">
              <label for="s-status">Redirect status</label
              ><select id="s-status" name="redirectStatus" ${w.canWrite ? '' : html` disabled`}>
                ${option('301', String(shownSettings.redirectStatus), '301 permanent')}${option('302', String(shownSettings.redirectStatus), '302 temporary')}
              </select>
            </div>
            <div class="field">
              <label
                ><input
                  type="checkbox"
                  name="keepHost"
                  ${shownSettings.keepHost ? html` checked` : ''}${w.canWrite ? '' : html` disabled`}
                />
                Keep the Host header when proxying</label
              >
            </div>
            <div class="field">
              <label
                ><input
                  type="checkbox"
                  name="redirectWww"
                  ${shownSettings.redirectWww ? html` checked` : ''}${w.canWrite ? '' : html` disabled`}
                />
                Redirect www to this hostname</label
              >
            </div>
            ${w.canWrite ? html`<button type="submit">Save settings</button>` : html`<p class="muted">${d.deletedAt ? 'The domain is deleted: these were its last settings.' : 'Viewers cannot change settings.'}</p>`}
          </form>
        </section>
      </div>
      <section class="card">
        <h2>Timeline</h2>
        ${
          d.timeline.length
            ? html`<ol class="timeline">
                ${d.timeline.map(
                  (t) =>
                    html`<li>
                      <strong>${t.title}</strong> ${t.tone ? pill(t.tone) : ''}
                      <span class="muted">· ${when(t.at)}</span
                      >${t.detail ? html`<br /><span class="muted">${t.detail}</span>` : ''}
                    </li>`,
                )}
              </ol>`
            : empty(
                'Nothing has happened yet',
                'Events appear here as the monitor checks DNS and issues the certificate.',
              )
        }
      </section>`,
  });
}

export function deleteDomainPage(actor: ConsoleActor, w: WorkspaceContext, domain: DomainView) {
  const base = `/console/w/${w.id}/domains/${domain.id}`;
  return layout({
    title: `Delete ${domain.hostname}`,
    actor,
    workspace: w,
    section: 'domains',
    body: html`<section class="card error-card">
      <h1>Delete ${domain.hostname}?</h1>
      <p class="lead">
        The edge stops serving this hostname at once and its certificate is dropped. Your customer's DNS records stay
        where they are. This cannot be undone: connecting it again starts from the beginning.
      </p>
      <form method="post" action="${base}/delete" class="actions">
        ${csrf(actor)} <button type="submit" class="danger">Delete ${domain.hostname}</button
        ><a href="${base}">Cancel</a>
      </form>
    </section>`,
  });
}

/** Every kept order attempt (CA, outcome, the full error support needs) and when the next one starts. */
function certificateAttempts(certificate: DomainView['certificate']) {
  const { attempts, retryAt } = certificate;
  if (!attempts.length) return '';
  const rows = [...attempts].reverse().map(
    (a) =>
      html`<tr>
        <td class="nowrap" data-label="When">${when(a.at)}</td>
        <td data-label="CA"><code class="nowrap">${a.issuer}</code></td>
        <td data-label="Outcome" class="nowrap">
          ${a.outcome === 'issued' ? 'issued' : html`<code>${a.code ?? 'failed'}</code>`}
        </td>
        <td data-label="What happened">${a.message ?? ''}</td>
      </tr>`,
  );
  return html`<section class="card">
    <h2>Certificate orders</h2>
    <p class="muted">
      Next try: ${retryAt ? when(retryAt) : 'none planned (issued, or waiting for a check)'} · the newest attempt first
    </p>
    <div class="table-wrap" tabindex="0" role="region" aria-label="Certificate orders">
      <table class="stack">
        <thead>
          <tr>
            <th scope="col">When</th>
            <th scope="col">CA</th>
            <th scope="col">Outcome</th>
            <th scope="col">What happened</th>
          </tr>
        </thead>
        <tbody>
          ${rows}
        </tbody>
      </table>
    </div>
  </section>`;
}
