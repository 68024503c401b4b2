import { statusOf } from '@app/http';
import { DomainError } from '@app/kernel';
import {
  PurchaseQueries,
  PurchaseRepository,
  purchaseIdFor,
  PutDnsRecordsDto,
  toPurchaseView,
  toRenewalView,
} from '@app/purchases';
import { Registrar } from '@app/registrar';
import { Injectable } from '@nestjs/common';
import { randomBytes } from 'node:crypto';
import { FormBody, field } from './console-request';
import { parseDnsForm, problemsByRow, recordSetVersion, rowsOf } from './dns-record-form';
import { validated } from './form-validation';
import { DnsEditorState } from './views/dns-editor.view';
import { PurchaseDetail } from './views/purchase.page';
import type { ManagedDns } from './views/managed-dns.view';

const DNS_CHANGED =
  'The DNS records changed after this page was loaded (someone else, or a call to the API, saved them), so nothing was saved. The form now shows the current records: make your change again.';

export type DnsSaveOutcome =
  { saved: unknown[]; hostname: string } | { saved?: undefined; status: number; detail: PurchaseDetail };

const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));

/** The purchase page's reads, and the DNS editor's safe replace-the-whole-set save. */
@Injectable()
export class ConsolePurchases {
  constructor(
    private readonly purchases: PurchaseRepository,
    private readonly queries: PurchaseQueries,
    private readonly registrar: Registrar,
  ) {}

  async detail(workspaceId: string, id: string, dns?: DnsEditorState): Promise<PurchaseDetail> {
    const record = await this.purchases.get(workspaceId, id);
    const purchase = toPurchaseView(record, this.registrar.defaultNameservers);
    // A year's renewal priced as the renewal will be (nothing charged): shown beside the Renew form.
    const renewalPrice =
      purchase.status === 'completed'
        ? await this.queries.renewalQuote(workspaceId, id, 1).catch(() => undefined)
        : undefined;
    const { live } = await this.queries
      .details(workspaceId, id)
      .catch((error: unknown) => ({ live: { error: messageOf(error) } }));
    return {
      purchase,
      renewalPrice,
      customNameservers: record.nameservers,
      live,
      renewals: record.renewals.map(toRenewalView),
      dns: dns ?? (await this.editor(workspaceId, id)),
      formKey: randomBytes(16).toString('base64url'),
    };
  }

  /**
   * The purchase that set up this domain's DNS at our registrar: completed, connected to this domain,
   * and still on the registrar's own nameservers (custom ones move the DNS elsewhere).
   */
  async managing(workspaceId: string, domainId: string, hostname: string): Promise<ManagedDns | undefined> {
    const { records } = await this.purchases.list(workspaceId, { hostname, status: ['completed'], limit: 5 });
    const record = records.find((r) => r.saga.connectedDomainId === domainId && !r.nameservers.length);
    return record && { purchaseId: record.id, hostname: record.hostname };
  }

  /** Whether a purchase was made with this Idempotency-Key already (a resent buy form answers it, buying nothing). */
  async boughtWith(workspaceId: string, idempotencyKey: string): Promise<boolean> {
    const id = purchaseIdFor(workspaceId, idempotencyKey);
    return this.purchases.get(workspaceId, id).then(
      () => true,
      (error: unknown) => {
        if (error instanceof DomainError && error.code === 'not_found') return false;
        throw error;
      },
    );
  }

  /** Whether a renewal was started with this request key already (a replay answers it, charging nothing more). */
  async renewalKnown(workspaceId: string, id: string, requestKey: string): Promise<boolean> {
    const record = await this.purchases.get(workspaceId, id);
    return record.renewals.some((r) => r.requestKey === requestKey);
  }

  /** The current set and its version, or why the registrar's records do not apply. */
  private async editor(workspaceId: string, id: string): Promise<DnsEditorState | { unavailable: string }> {
    try {
      const { records } = await this.queries.dns(workspaceId, id);
      return { rows: rowsOf(records), version: recordSetVersion(records) };
    } catch (error) {
      if (!(error instanceof DomainError) || error.code === 'not_found') throw error;
      return { unavailable: error.message };
    }
  }

  async save(workspaceId: string, id: string, body: FormBody): Promise<DnsSaveOutcome> {
    const form = parseDnsForm(body);
    const read = field(body, 'version');
    const current = await this.queries.dns(workspaceId, id);
    const version = recordSetVersion(current.records);
    if (read !== version) {
      const dns = { rows: rowsOf(current.records), version, problems: [DNS_CHANGED] };
      return { status: 409, detail: await this.detail(workspaceId, id, dns) };
    }
    try {
      const dto = await validated(PutDnsRecordsDto, { records: form.records });
      const { hostname, records } = await this.queries.putDns(workspaceId, id, dto);
      return { saved: records, hostname };
    } catch (error) {
      if (!(error instanceof DomainError) || error.code === 'not_found') throw error;
      const fields = (error.details?.fields as { field: string; problems: string[] }[] | undefined) ?? [];
      const { byRow, other } = problemsByRow(fields, form.rowOf);
      const problems = fields.length ? other : [error.message];
      for (const [row, list] of byRow) {
        const r = form.rows[row];
        problems.push(`${r.type || 'New'} record "${r.name || '(no name)'}": ${list.join('; ')}`);
      }
      const dns = { rows: form.rows, version, byRow, problems };
      return { status: statusOf(error.code), detail: await this.detail(workspaceId, id, dns) };
    }
  }
}
