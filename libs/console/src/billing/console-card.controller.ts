import { DomainError } from '@app/kernel';
import { Body, Get, Param, Post } from '@nestjs/common';
import { ConsoleActor } from '../access';
import { ConsoleAccess, Workspace } from '../console-access';
import { AuditNote, AuditNoteFn, Audited } from '../console-audited';
import { ConsoleController } from '../console-controller';
import { Actor, FormBody, PageWithStatus, Redirect, field } from '../console-request';
import type { WorkspaceContext } from '../views/layout';
import { cardPage } from './card.page';
import { cardText } from './card-text';
import { WorkspaceCards } from './workspace-cards.service';

/** A workspace adds or changes its card after creation, checked with the payment provider. */
@ConsoleController()
export class ConsoleCardController {
  constructor(private readonly cards: WorkspaceCards) {}

  @ConsoleAccess('write')
  @Get('w/:ws/card')
  async form(@Actor() actor: ConsoleActor, @Workspace() w: WorkspaceContext, @Param('ws') ws: string) {
    return cardPage(actor, w, await this.cards.onFile(ws));
  }

  @Audited('workspace.card_set')
  @ConsoleAccess('write')
  @Post('w/:ws/card')
  async save(
    @Actor() actor: ConsoleActor,
    @AuditNote() note: AuditNoteFn,
    @Workspace() w: WorkspaceContext,
    @Param('ws') ws: string,
    @Body() body: FormBody,
  ) {
    const typed = (field(body, 'paymentMethod') ?? '').trim();
    try {
      const before = await this.cards.onFile(ws);
      const card = await this.cards.save(ws, typed);
      note({
        target: ws,
        detail: { before: { card: 'card' in before ? cardText(before.card) : null }, after: { card: cardText(card) } },
      });
      return new Redirect(`/console/w/${ws}?notice=card-saved`);
    } catch (error) {
      if (!(error instanceof DomainError) || error.code !== 'bad_request') throw error;
      const page = cardPage(actor, w, await this.cards.onFile(ws), { typed, problem: error.message });
      return new PageWithStatus(400, page);
    }
  }
}
