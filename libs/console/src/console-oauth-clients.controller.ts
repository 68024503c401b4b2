import { ALL_SCOPES } from '@app/auth';
import { DomainError } from '@app/kernel';
import { CreateOAuthClientDto, OAuthClients } from '@app/oauth';
import { Body, Get, Param, Post, Query } from '@nestjs/common';
import { ConsoleActor } from './access';
import { ConsoleController } from './console-controller';
import { Actor, FormBody, PageWithStatus, Redirect, ShowOnce, ShownOnce, field, fields } from './console-request';
import type { Flash } from './console-flashes.store';
import { validated } from './form-validation';
import { oauthClientsPage } from './views/oauth-clients.page';
import { ConsoleAccess, Workspace } from './console-access';
import type { WorkspaceContext } from './views/layout';
import { AuditNote, AuditNoteFn, Audited } from './console-audited';

const NOTICES: Record<string, string> = {
  revoked: 'The client is revoked: it gets no new token, and its tokens stop working at once.',
};

/** A workspace's OAuth clients through the same use case as /admin/workspaces/{id}/oauth-clients. */
@ConsoleController()
export class ConsoleOAuthClientsController {
  constructor(private readonly clients: OAuthClients) {}

  @ConsoleAccess('read')
  @Get('w/:ws/oauth-clients')
  async list(
    @Actor() actor: ConsoleActor,
    @Workspace() w: WorkspaceContext,
    @Param('ws') ws: string,
    @Query('notice') notice?: string,
    @ShownOnce() flash?: Flash,
  ) {
    const { clients } = await this.clients.list(ws);
    const shown = flash?.kind === 'oauth_client' && flash.workspaceId === ws ? flash : undefined;
    const issued = shown && { clientId: shown.clientId, secret: shown.secret };
    return oauthClientsPage(actor, w, clients, ALL_SCOPES, { notice: notice ? NOTICES[notice] : undefined, issued });
  }

  /** Post, redirect, show once: the secret waits for the list in a one-time flash; a reload registers nothing. */
  @Audited('oauth_client.created')
  @ConsoleAccess('write')
  @Post('w/:ws/oauth-clients')
  async create(
    @Actor() actor: ConsoleActor,
    @AuditNote() note: AuditNoteFn,
    @Workspace() w: WorkspaceContext,
    @Param('ws') ws: string,
    @Body() body: FormBody,
  ) {
    let dto: CreateOAuthClientDto;
    try {
      dto = await validated(CreateOAuthClientDto, { name: field(body, 'name'), scopes: fields(body, 'scopes') });
    } catch (error) {
      if (!(error instanceof DomainError)) throw error;
      const { clients } = await this.clients.list(ws);
      const problem = error.message.replace(/^Invalid request: /, '');
      return new PageWithStatus(400, oauthClientsPage(actor, w, clients, ALL_SCOPES, { problem }));
    }
    const issued = await this.clients.create(ws, dto.name, dto.scopes);
    note({ target: issued.client_id, detail: { name: issued.client.name, scopes: issued.client.scopes } });
    const flash: Flash = {
      kind: 'oauth_client',
      workspaceId: ws,
      clientId: issued.client_id,
      secret: issued.client_secret,
    };
    return new ShowOnce(flash, `/console/w/${ws}/oauth-clients`);
  }

  @Audited('oauth_client.revoked')
  @ConsoleAccess('write')
  @Post('w/:ws/oauth-clients/:clientId/revoke')
  async revoke(
    @Actor() actor: ConsoleActor,
    @AuditNote() note: AuditNoteFn,
    @Param('ws') ws: string,
    @Param('clientId') clientId: string,
  ) {
    const { client } = await this.clients.revoke(ws, clientId);
    note({ target: client.clientId, detail: { name: client.name } });
    return new Redirect(`/console/w/${ws}/oauth-clients?notice=revoked`);
  }
}
