import { statusOf } from '@app/http';
import { DomainError, canonicalHostname } from '@app/kernel';
import {
  AutoConnectDto,
  ConnectPurchase,
  PURCHASE_STATUSES,
  PurchaseQueries,
  PurchaseRepository,
  RenewPurchase,
  RenewPurchaseDto,
  SetAutoRenew,
  SetNameservers,
  toPurchaseView,
} from '@app/purchases';
import { Registrar } from '@app/registrar';
import { Body, Get, Param, Post, Query } from '@nestjs/common';
import { randomBytes } from 'node:crypto';
import { ConsoleActor } from './access';
import { ConsoleController } from './console-controller';
import { ConsolePurchases } from './console-purchases.service';
import { Actor, FormBody, PageWithStatus, Redirect, field } from './console-request';
import { validated } from './form-validation';
import { PurchaseDetail, purchasePage } from './views/purchase.page';
import { PurchaseFilters, purchasesPage } from './views/purchases.page';
import { ConsoleAccess, Workspace } from './console-access';
import type { WorkspaceContext } from './views/layout';
import { AuditNote, AuditNoteFn, Audited } from './console-audited';
import { RenewConfirmation, renewConfirmPage } from './views/renew-confirm.page';
import { money } from './views/purchase-money.view';
import { ReplayRedirect } from './console-replay';
import { WorkspaceCards } from './billing/workspace-cards.service';
import { cardOnFileText } from './billing/card.page';

const PAGE_SIZE = 25;
const NOTICES: Record<string, string> = {
  renewed: 'Renewed: the new expiry is below.',
  bought: 'Bought: the domain is registered and the card was charged.',
  'not-bought': 'The purchase did not go through: what happened, and what was charged, is below.',
  'auto-renew-on': 'Auto-renew is on.',
  'auto-renew-off': 'Auto-renew is off: the domain lapses at its expiry unless renewed by hand.',
  nameservers: 'Nameservers saved. Changes can take up to 24 hours to reach every resolver.',
  'nameservers-restored': "The registrar's own nameservers are back, and with them its DNS records.",
  dns: 'DNS records saved at the registrar.',
  connected: 'Connected: the domain is created and its DNS points at the edge.',
};

/** A DomainError a form can show beside itself (bad input, a registrar refusal); others are error pages. */
const formError = (error: unknown): error is DomainError =>
  error instanceof DomainError && error.code !== 'not_found' && error.code !== 'forbidden';

/** Domain purchases through the same use cases as /v1/domain-purchases. */
@ConsoleController()
export class ConsolePurchasesController {
  constructor(
    private readonly purchases: PurchaseRepository,
    private readonly dns: ConsolePurchases,
    private readonly renewals: RenewPurchase,
    private readonly autoRenews: SetAutoRenew,
    private readonly nameserverChanges: SetNameservers,
    private readonly connects: ConnectPurchase,
    private readonly registrar: Registrar,
    private readonly queries: PurchaseQueries,
    private readonly cards: WorkspaceCards,
  ) {}

  @ConsoleAccess('read')
  @Get('w/:ws/purchases')
  async list(
    @Actor() actor: ConsoleActor,
    @Workspace() w: WorkspaceContext,
    @Param('ws') ws: string,
    @Query() q: Record<string, string | undefined>,
  ) {
    const status = PURCHASE_STATUSES.find((s) => s === q.status);
    const typed = q.hostname?.trim().slice(0, 253) || undefined;
    const filters: PurchaseFilters = { status, hostname: typed };
    const page = await this.purchases.list(ws, {
      hostname: typed && canonicalHostname(typed),
      status: status ? [status] : undefined,
      cursor: q.cursor,
      limit: PAGE_SIZE,
    });
    const views = page.records.map((r) => toPurchaseView(r, this.registrar.defaultNameservers));
    return purchasesPage(actor, w, views, filters, page.nextCursor, Boolean(q.cursor));
  }

  @ConsoleAccess('read')
  @Get('w/:ws/purchases/:id')
  async show(
    @Actor() actor: ConsoleActor,
    @Workspace() w: WorkspaceContext,
    @Param('ws') ws: string,
    @Param('id') id: string,
    @Query('notice') notice?: string,
  ) {
    return purchasePage(actor, w, await this.dns.detail(ws, id), notice ? NOTICES[notice] : undefined);
  }

  /** The whole edited set, refused (with the current set shown) when it changed since the form was read. */
  @Audited('purchase.dns_replaced')
  @ConsoleAccess('write')
  @Post('w/:ws/purchases/:id/dns')
  async saveDns(
    @Actor() actor: ConsoleActor,
    @AuditNote() note: AuditNoteFn,
    @Workspace() w: WorkspaceContext,
    @Param('ws') ws: string,
    @Param('id') id: string,
    @Body() body: FormBody,
  ) {
    const outcome = await this.dns.save(ws, id, body);
    if (outcome.saved) {
      note({ detail: { hostname: outcome.hostname, records: outcome.saved.length } });
      return new Redirect(`/console/w/${ws}/purchases/${id}?notice=dns#dns`);
    }
    return new PageWithStatus(outcome.status, purchasePage(actor, w, outcome.detail));
  }

  /** The renewal's price, period and card before anything is charged; a GET never charges. */
  @ConsoleAccess('write')
  @Get('w/:ws/purchases/:id/renew')
  async confirmRenewal(
    @Actor() actor: ConsoleActor,
    @Workspace() w: WorkspaceContext,
    @Param('ws') ws: string,
    @Param('id') id: string,
    @Query('years') years?: string,
  ) {
    try {
      const dto = await validated(RenewPurchaseDto, { years: yearsOf(years) });
      return renewConfirmPage(actor, w, await this.confirmation(ws, id, dto.years));
    } catch (error) {
      return this.refused(actor, w, id, error, { form: 'renew' });
    }
  }

  @Audited('purchase.renewed')
  @ConsoleAccess('write')
  @Post('w/:ws/purchases/:id/renew')
  async renew(
    @Actor() actor: ConsoleActor,
    @AuditNote() note: AuditNoteFn,
    @Workspace() w: WorkspaceContext,
    @Param('ws') ws: string,
    @Param('id') id: string,
    @Body() body: FormBody,
  ) {
    try {
      const dto = await validated(RenewPurchaseDto, { years: yearsOf(field(body, 'years')) });
      const key = requestKey(body);
      // The confirmed price is the most the renewal may charge, enforced by the purchase itself (409
      // price_changed before any charge: confirmed again below); a replayed key answers what it charged.
      const confirmed = Number(field(body, 'confirmedTotalCents'));
      const maxTotalCents = Number.isInteger(confirmed) && confirmed > 0 ? confirmed : 1;
      const replay = await this.dns.renewalKnown(ws, id, key);
      const renewed = await this.renewals.execute(ws, id, dto.years, key, maxTotalCents).catch((error: unknown) => {
        if (error instanceof DomainError && error.code === 'price_changed') return error;
        throw error;
      });
      if (renewed instanceof DomainError) {
        const again = await this.confirmation(ws, id, dto.years, field(body, 'requestKey'));
        again.problem = `The price changed since it was shown: it is now ${money(again.quote.totalCents, again.quote.currency)}. Nothing was charged; confirm the new price to renew.`;
        return new PageWithStatus(409, renewConfirmPage(actor, w, again));
      }
      const { renewal } = renewed;
      if (replay) return new ReplayRedirect(`/console/w/${ws}/purchases/${id}?notice=renewed`);
      note({
        detail: {
          years: dto.years,
          status: renewal.status,
          totalCents: renewal.totalCents,
          expiresAt: renewal.expiresAt,
        },
      });
      return new Redirect(`/console/w/${ws}/purchases/${id}?notice=renewed`);
    } catch (error) {
      return this.refused(actor, w, id, error, { form: 'renew' });
    }
  }

  private async confirmation(ws: string, id: string, years: number, key?: string): Promise<RenewConfirmation> {
    const [quote, onFile] = await Promise.all([this.queries.renewalQuote(ws, id, years), this.cards.onFile(ws)]);
    const requestKey = key && /^[A-Za-z0-9_-]{16,64}$/.test(key) ? key : randomBytes(16).toString('base64url');
    return { purchaseId: id, quote, card: cardOnFileText(onFile), hasCard: !('none' in onFile), requestKey };
  }

  @Audited('purchase.auto_renew_set')
  @ConsoleAccess('write')
  @Post('w/:ws/purchases/:id/auto-renew')
  async autoRenew(
    @Actor() actor: ConsoleActor,
    @AuditNote() note: AuditNoteFn,
    @Param('ws') ws: string,
    @Param('id') id: string,
    @Body() body: FormBody,
  ) {
    const value = field(body, 'autoRenew');
    if (value !== 'true' && value !== 'false') {
      throw new DomainError('bad_request', 'autoRenew must be true or false', { field: 'autoRenew' });
    }
    const { purchase } = await this.autoRenews.execute(ws, id, value === 'true');
    note({ detail: { hostname: purchase.hostname, autoRenew: purchase.autoRenew } });
    return new Redirect(`/console/w/${ws}/purchases/${id}?notice=auto-renew-${purchase.autoRenew ? 'on' : 'off'}`);
  }

  @Audited('purchase.nameservers_set')
  @ConsoleAccess('write')
  @Post('w/:ws/purchases/:id/nameservers')
  async nameservers(
    @Actor() actor: ConsoleActor,
    @AuditNote() note: AuditNoteFn,
    @Workspace() w: WorkspaceContext,
    @Param('ws') ws: string,
    @Param('id') id: string,
    @Body() body: FormBody,
  ) {
    const typed = field(body, 'nameservers') ?? '';
    const list = typed
      .split(/[\s,]+/)
      .map((ns) => ns.trim())
      .filter(Boolean);
    try {
      if (list.length > 13) throw new DomainError('bad_request', `At most 13 nameservers (${list.length} given)`);
      const { nameservers } = await this.nameserverChanges.execute(ws, id, list);
      note({ detail: { nameservers } });
      return new Redirect(
        `/console/w/${ws}/purchases/${id}?notice=${list.length ? 'nameservers' : 'nameservers-restored'}`,
      );
    } catch (error) {
      return this.refused(actor, w, id, error, { form: 'nameservers', value: typed });
    }
  }

  @Audited('purchase.connected')
  @ConsoleAccess('write')
  @Post('w/:ws/purchases/:id/connect')
  async connect(
    @Actor() actor: ConsoleActor,
    @AuditNote() note: AuditNoteFn,
    @Workspace() w: WorkspaceContext,
    @Param('ws') ws: string,
    @Param('id') id: string,
    @Body() body: FormBody,
  ) {
    try {
      const dto = await validated(AutoConnectDto, { originUrl: field(body, 'originUrl') });
      const { domain } = await this.connects.execute(ws, id, dto, requestKey(body));
      note({ detail: { hostname: domain.hostname, domainId: domain.id, originUrl: domain.originUrl } });
      return new Redirect(`/console/w/${ws}/purchases/${id}?notice=connected`);
    } catch (error) {
      return this.refused(actor, w, id, error, { form: 'connect' });
    }
  }

  /** The purchase page again with the use case's refusal beside the form that caused it. */
  private async refused(
    actor: ConsoleActor,
    w: WorkspaceContext,
    id: string,
    error: unknown,
    problem: Omit<NonNullable<PurchaseDetail['formProblem']>, 'message'>,
  ) {
    if (!formError(error)) throw error;
    const detail = await this.dns.detail(w.id, id);
    detail.formProblem = { ...problem, message: error.message };
    return new PageWithStatus(statusOf(error.code), purchasePage(actor, w, detail));
  }
}

/** The years field as a number when it is one, else as typed (the DTO names the problem). */
function yearsOf(typed: string | undefined): unknown {
  const years = Number(typed);
  return Number.isInteger(years) ? years : typed;
}

/** A form's own idempotency key: a double submit renews or connects once (the actor keeps the key). */
function requestKey(body: FormBody): string {
  const key = field(body, 'requestKey');
  return key && /^[A-Za-z0-9_-]{16,64}$/.test(key)
    ? `console:${key}`
    : `console:${randomBytes(12).toString('base64url')}`;
}
