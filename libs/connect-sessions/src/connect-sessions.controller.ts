import { CurrentPrincipal, Principal, ScopeResourceOf } from '@app/auth';
import { DomainRepository } from '@app/domains';
import { Body, Controller, HttpCode, Param, Post } from '@nestjs/common';
import { ConnectSessions } from './connect-sessions.service';
import { CreateConnectSessionDto, DEFAULT_SESSION_TTL_SECONDS } from './dto/create-connect-session.dto';

/** Minting needs a workspace credential: without @ConnectSessionAllowed a session token gets 403 here. */
@Controller('v1/domains')
@ScopeResourceOf('domains')
export class ConnectSessionsController {
  constructor(
    private readonly sessions: ConnectSessions,
    private readonly domains: DomainRepository,
  ) {}

  @Post(':id/connect-session')
  @HttpCode(200)
  async create(@CurrentPrincipal() p: Principal, @Param('id') id: string, @Body() body: CreateConnectSessionDto) {
    const domain = await this.domains.get(p.workspaceId, id);
    const ttl = body?.ttlSeconds ?? DEFAULT_SESSION_TTL_SECONDS;
    return { connectSession: this.sessions.mint(p.workspaceId, domain, ttl) };
  }
}
