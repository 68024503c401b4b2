import { statusOf } from '@app/http';
import { DomainError } from '@app/kernel';
import { CreatePurchase, CreatePurchaseDto, PurchaseQueries } from '@app/purchases';
import { Body, Get, Param, Post, Query } from '@nestjs/common';
import { randomBytes } from 'node:crypto';
import { ConsoleActor } from '../access';
import { ConsoleAccess, Workspace } from '../console-access';
import { AuditNote, AuditNoteFn, Audited } from '../console-audited';
import { ConsoleController } from '../console-controller';
import { Actor, FormBody, PageWithStatus, Redirect, field } from '../console-request';
import { validated } from '../form-validation';
import type { WorkspaceContext } from '../views/layout';
import { cardOnFileText } from '../billing/card.page';
import { WorkspaceCards } from '../billing/workspace-cards.service';
import { money } from '../views/purchase-money.view';
import { BuyForm, buyProblems, purchaseInput, readBuyForm } from './buy-form';
import { BuyConfirmation, buyConfirmPage } from './buy-confirm.page';
import { buyPage } from './buy.page';
import { ConsolePurchases } from '../console-purchases.service';
import { ReplayRedirect } from '../console-replay';

const KEY = /^[A-Za-z0-9_-]{16,64}$/;
/** Problems the person can fix in the form; anything else (an outage, a bug) is an error page. */
const FIXABLE = new Set(['bad_request', 'unavailable', 'billing_required', 'conflict']);
const fixable = (error: unknown): error is DomainError => error instanceof DomainError && FIXABLE.has(error.code);

/**
 * "Buy a domain" through the API's own use cases: GET searches (PurchaseQueries.check, as
 * GET /v1/domain-purchases/check), the form posts `step=review` for a confirmation (nothing written,
 * so not audited: PageWithStatus), then `step=buy` with the confirmation's request key (CreatePurchase
 * with it as the Idempotency-Key, and the confirmed price as maxTotalCents), answered by a redirect
 * to the purchase: post, redirect, get, and a resent form buys once.
 */
@ConsoleController()
export class ConsoleBuyController {
  constructor(
    private readonly queries: PurchaseQueries,
    private readonly creates: CreatePurchase,
    private readonly cards: WorkspaceCards,
    private readonly pages: ConsolePurchases,
  ) {}

  @ConsoleAccess('write')
  @Get('w/:ws/purchases/buy')
  async search(@Actor() actor: ConsoleActor, @Workspace() w: WorkspaceContext, @Query('hostname') typed?: string) {
    const form = readBuyForm({ hostname: typed?.slice(0, 253), whoisPrivacy: 'on' });
    if (!form.hostname) return buyPage(actor, w, { form });
    try {
      const availability = await this.queries.check(form.hostname);
      return buyPage(actor, w, { form: { ...form, hostname: availability.hostname }, availability });
    } catch (error) {
      if (!fixable(error)) throw error;
      const problems = buyProblems(error);
      const searchProblem = [problems.fields.hostname, ...problems.form].filter(Boolean).join(' ') || error.message;
      return new PageWithStatus(statusOf(error.code), buyPage(actor, w, { form, searchProblem }));
    }
  }

  @Audited('purchase.bought')
  @ConsoleAccess('write')
  @Post('w/:ws/purchases/buy')
  async buy(
    @Actor() actor: ConsoleActor,
    @AuditNote() note: AuditNoteFn,
    @Workspace() w: WorkspaceContext,
    @Param('ws') ws: string,
    @Body() body: FormBody,
  ) {
    const form = readBuyForm(body);
    const step = field(body, 'step');
    if (step === 'edit')
      return new PageWithStatus(200, buyPage(actor, w, { form, problems: { fields: {}, form: [] } }));
    const key = field(body, 'requestKey');
    try {
      const dto = await validated(CreatePurchaseDto, purchaseInput(form));
      if (step !== 'buy' || !key || !KEY.test(key))
        return new PageWithStatus(200, buyConfirmPage(actor, w, await this.confirmation(ws, form, dto)));
      const confirmed = Number(field(body, 'confirmedTotalCents'));
      const order = Object.assign(dto, { maxTotalCents: Number.isInteger(confirmed) && confirmed > 0 ? confirmed : 1 });
      const replay = await this.pages.boughtWith(ws, `console:${key}`);
      const { purchase } = await this.creates.execute(ws, order, `console:${key}`);
      if (replay) return new ReplayRedirect(`/console/w/${ws}/purchases/${purchase.id}?notice=bought`);
      note({
        target: purchase.id,
        detail: {
          hostname: purchase.hostname,
          years: purchase.years,
          status: purchase.status,
          totalCents: purchase.totalCents,
        },
      });
      return new Redirect(`/console/w/${ws}/purchases/${purchase.id}?notice=bought`);
    } catch (error) {
      return this.refused(actor, w, ws, form, key, error, note);
    }
  }

  private async confirmation(
    ws: string,
    form: BuyForm,
    dto: CreatePurchaseDto,
    requestKey = randomBytes(16).toString('base64url'),
  ): Promise<BuyConfirmation> {
    const [quote, onFile] = await Promise.all([
      this.queries.purchaseQuote(dto.hostname, dto.years ?? 1, dto.enableWhoisPrivacy ?? true),
      this.cards.onFile(ws),
    ]);
    return { form, quote, card: cardOnFileText(onFile), hasCard: !('none' in onFile), requestKey };
  }

  /** A refusal where it can be fixed: a purchase that was written (declined, refunded) is shown as it is. */
  private async refused(
    actor: ConsoleActor,
    w: WorkspaceContext,
    ws: string,
    form: BuyForm,
    key: string | undefined,
    error: unknown,
    note: AuditNoteFn,
  ) {
    if (!(error instanceof DomainError)) throw error;
    const purchaseId = typeof error.details?.purchaseId === 'string' ? error.details.purchaseId : undefined;
    if (purchaseId) {
      note({ target: purchaseId, detail: { hostname: form.hostname, outcome: error.code, reason: error.message } });
      return new Redirect(`/console/w/${ws}/purchases/${purchaseId}?notice=not-bought`);
    }
    if (error.code === 'price_changed') {
      const dto = await validated(CreatePurchaseDto, purchaseInput(form));
      const again = await this.confirmation(ws, form, dto, key);
      again.problem = `The price changed since it was shown: it is now ${money(again.quote.totalCents, again.quote.currency)}. Nothing was charged; confirm the new price to buy.`;
      return new PageWithStatus(409, buyConfirmPage(actor, w, again));
    }
    if (!FIXABLE.has(error.code)) throw error;
    return new PageWithStatus(statusOf(error.code), buyPage(actor, w, { form, problems: buyProblems(error) }));
  }
}
