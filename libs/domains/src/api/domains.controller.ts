import { ConnectSessionAllowed, CurrentPrincipal, Principal, ScopeResourceOf } from '@app/auth';
import { APP_CONFIG, AppConfig } from '@app/config';
import { canonicalHostname, edgeSettingsOf } from '@app/kernel';
import { Idempotent } from '@app/limits';
import { Body, Controller, Delete, Get, Headers, HttpCode, Inject, Param, Patch, Post, Query } from '@nestjs/common';
import { CheckDomain } from './check-domain.usecase';
import { CreateDomain } from './create-domain.usecase';
import { DeleteDomain } from './delete-domain.usecase';
import { UpdateDomain } from './update-domain.usecase';
import { DomainRepository } from '../store/domain.repository';
import { DomainViews } from './domain-views.service';
import { toDomainView } from '../model/domain.view';
import { CreateDomainDto } from './dto/create-domain.dto';
import { ListDomainsDto } from './dto/list-domains.dto';
import { UpdateDomainDto } from './dto/update-domain.dto';

@Controller('v1/domains')
@ScopeResourceOf('domains')
export class DomainsController {
  constructor(
    private readonly creates: CreateDomain,
    private readonly updates: UpdateDomain,
    private readonly deletes: DeleteDomain,
    private readonly checks: CheckDomain,
    private readonly domains: DomainRepository,
    private readonly views: DomainViews,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  private get edge() {
    return edgeSettingsOf(this.config);
  }

  @Get()
  async list(@CurrentPrincipal() p: Principal, @Query() query: ListDomainsDto) {
    const hostname = query.hostname && canonicalHostname(query.hostname);
    const page = await this.domains.list(p.workspaceId, { ...query, hostname, limit: query.limit ?? 25 });
    return { domains: page.records.map((r) => toDomainView(r, this.edge)), nextCursor: page.nextCursor };
  }

  @Post()
  @Idempotent()
  create(@CurrentPrincipal() p: Principal, @Body() body: CreateDomainDto, @Headers('idempotency-key') key?: string) {
    return this.creates.execute(p.workspaceId, body, key);
  }

  @Get(':id')
  @ConnectSessionAllowed()
  async get(@CurrentPrincipal() p: Principal, @Param('id') id: string) {
    return { domain: await this.views.get(p.workspaceId, id) };
  }

  @Patch(':id')
  update(@CurrentPrincipal() p: Principal, @Param('id') id: string, @Body() body: UpdateDomainDto) {
    return this.updates.execute(p.workspaceId, id, body);
  }

  @Delete(':id')
  remove(@CurrentPrincipal() p: Principal, @Param('id') id: string) {
    return this.deletes.execute(p.workspaceId, id);
  }

  @Post(':id/check')
  @HttpCode(200)
  @ConnectSessionAllowed()
  check(@CurrentPrincipal() p: Principal, @Param('id') id: string) {
    return this.checks.execute(p.workspaceId, id);
  }
}
