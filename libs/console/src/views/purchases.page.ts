import { PURCHASE_STATUSES, type PurchaseView } from '@app/purchases';
import { ConsoleActor } from '../access';
import { html } from '../html';
import { WorkspaceContext, empty, layout, listPager, noneMatching, pill, when } from './layout';
import { purchaseCharge } from './purchase-money.view';

export interface PurchaseFilters {
  status?: string;
  hostname?: string;
}

const option = (value: string, selected: string | undefined) =>
  html`<option value="${value}" ${value === selected ? html` selected` : ''}>${value}</option>`;

export function purchasesPage(
  actor: ConsoleActor,
  w: WorkspaceContext,
  purchases: PurchaseView[],
  filters: PurchaseFilters,
  nextCursor: string | null,
  paged: boolean,
) {
  const base = `/console/w/${w.id}/purchases`;
  const filtered = Boolean(filters.status || filters.hostname);
  return layout({
    title: 'Domain purchases',
    actor,
    workspace: w,
    section: 'purchases',
    body: html`<div class="head">
        <div>
          <h1>Domain purchases</h1>
          <p class="lead">Domains bought through the registrar: renewals, nameservers and their DNS records.</p>
        </div>
        ${w.canWrite ? html`<div class="actions"><a class="button" href="${base}/buy">Buy a domain</a></div>` : ''}
      </div>
      <form method="get" action="${base}" class="filters" role="search" aria-label="Filter purchases">
        <div class="field">
          <label for="p-hostname">Hostname</label
          ><input
            id="p-hostname"
            name="hostname"
            type="search"
            value="${filters.hostname ?? ''}"
            placeholder="example.com"
          />
        </div>
        <div class="field">
          <label for="p-status">Status</label
          ><select id="p-status" name="status">
            <option value="">any</option>
            ${PURCHASE_STATUSES.map((s) => option(s, filters.status))}
          </select>
        </div>
        <button type="submit" class="secondary">Filter</button>
        ${filtered ? html`<a href="${base}">Clear filters</a>` : ''}
      </form>
      ${
        purchases.length
          ? html`<div class="table-wrap">
                <table>
                  <thead>
                    <tr>
                      <th scope="col">Domain</th>
                      <th scope="col">Status</th>
                      <th scope="col">Expires</th>
                      <th scope="col">Auto-renew</th>
                      <th scope="col">Connected</th>
                      <th scope="col">Money</th>
                      <th scope="col">Bought</th>
                    </tr>
                  </thead>
                  <tbody>
                    ${purchases.map(
                      (p) =>
                        html`<tr>
                          <td><a href="${base}/${p.id}">${p.hostname}</a></td>
                          <td>${pill(p.status)}</td>
                          <td>${when(p.expiresAt)}</td>
                          <td>${pill(p.autoRenew ? 'on' : 'off')}</td>
                          <td>
                            ${p.connectedDomainId ? html`<a href="/console/w/${w.id}/domains/${p.connectedDomainId}">yes</a>` : html`<span class="muted">no</span>`}
                          </td>
                          <td>${purchaseCharge(p)}</td>
                          <td>${when(p.createdAt)}</td>
                        </tr>`,
                    )}
                  </tbody>
                </table>
              </div>
              ${listPager(base, filters, nextCursor, paged)}`
          : filtered
            ? noneMatching(base, 'purchase')
            : empty(
                'No domain purchases yet',
                html`Buy a domain from your backend with <code>POST /v1/domain-purchases</code> (see the README's
                  "Domain purchases"); it appears here with its registrar view and DNS.`,
              )
      }`,
  });
}
