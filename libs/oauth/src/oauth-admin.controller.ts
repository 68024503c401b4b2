import { AdminOnly } from '@app/auth';
import { Body, Controller, Delete, Get, Param, Post } from '@nestjs/common';
import { CreateOAuthClientDto } from './dto/create-oauth-client.dto';
import { OAuthClients } from './oauth-clients.usecase';

/** OAuth client registration, beside libs/admin's routes. */
@AdminOnly()
@Controller('admin/workspaces/:id/oauth-clients')
export class OAuthAdminController {
  constructor(private readonly clients: OAuthClients) {}

  @Post()
  create(@Param('id') id: string, @Body() body: CreateOAuthClientDto) {
    return this.clients.create(id, body.name, body.scopes);
  }

  @Get()
  list(@Param('id') id: string) {
    return this.clients.list(id);
  }

  @Delete(':clientId')
  revoke(@Param('id') id: string, @Param('clientId') clientId: string) {
    return this.clients.revoke(id, clientId);
  }
}
