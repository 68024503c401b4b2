import { CurrentPrincipal, Principal, ScopeResourceOf } from '@app/auth';
import { canonicalHostname } from '@app/kernel';
import { Idempotent } from '@app/limits';
import { Registrar } from '@app/registrar';
import { Body, Controller, Get, Headers, HttpCode, Param, Patch, Post, Put, Query } from '@nestjs/common';
import { AutoConnectDto, CreatePurchaseDto } from './dto/create-purchase.dto';
import { PutDnsRecordsDto } from './dto/dns-records.dto';
import { ListPurchasesDto } from './dto/list-purchases.dto';
import { CheckPurchaseDto, NameserversDto, RenewPurchaseDto, UpdatePurchaseDto } from './dto/purchase-requests.dto';
import { ConnectPurchase } from './connect-purchase.usecase';
import { CreatePurchase } from './create-purchase.usecase';
import { RenewPurchase } from './renew-purchase.usecase';
import { SetAutoRenew } from './set-auto-renew.usecase';
import { SetNameservers } from './set-nameservers.usecase';
import { PurchaseQueries } from './purchase-queries.usecase';
import { PurchaseRepository } from '../store/purchase.repository';
import { toPurchaseView } from '../model/purchase.view';

@Controller('v1/domain-purchases')
@ScopeResourceOf('purchases')
export class PurchasesController {
  constructor(
    private readonly creates: CreatePurchase,
    private readonly autoRenews: SetAutoRenew,
    private readonly nameserverChanges: SetNameservers,
    private readonly connects: ConnectPurchase,
    private readonly renewals: RenewPurchase,
    private readonly queries: PurchaseQueries,
    private readonly purchases: PurchaseRepository,
    private readonly registrar: Registrar,
  ) {}

  @Get('check')
  check(@Query() query: CheckPurchaseDto) {
    return this.queries.check(query.hostname);
  }

  @Get()
  async list(@CurrentPrincipal() p: Principal, @Query() query: ListPurchasesDto) {
    const hostname = query.hostname && canonicalHostname(query.hostname);
    const page = await this.purchases.list(p.workspaceId, { ...query, hostname, limit: query.limit ?? 25 });
    return {
      purchases: page.records.map((r) => toPurchaseView(r, this.registrar.defaultNameservers)),
      nextCursor: page.nextCursor,
    };
  }

  @Post()
  @Idempotent()
  create(@CurrentPrincipal() p: Principal, @Body() body: CreatePurchaseDto, @Headers('idempotency-key') key?: string) {
    return this.creates.execute(p.workspaceId, body, key);
  }

  @Get(':id')
  async get(@CurrentPrincipal() p: Principal, @Param('id') id: string) {
    return { purchase: toPurchaseView(await this.purchases.get(p.workspaceId, id), this.registrar.defaultNameservers) };
  }

  @Patch(':id')
  update(@CurrentPrincipal() p: Principal, @Param('id') id: string, @Body() body: UpdatePurchaseDto) {
    return this.autoRenews.execute(p.workspaceId, id, body.autoRenew);
  }

  @Get(':id/details')
  details(@CurrentPrincipal() p: Principal, @Param('id') id: string) {
    return this.queries.details(p.workspaceId, id);
  }

  @Get(':id/dns')
  dns(@CurrentPrincipal() p: Principal, @Param('id') id: string) {
    return this.queries.dns(p.workspaceId, id);
  }

  @Put(':id/dns')
  putDns(@CurrentPrincipal() p: Principal, @Param('id') id: string, @Body() body: PutDnsRecordsDto) {
    return this.queries.putDns(p.workspaceId, id, body);
  }

  @Put(':id/nameservers')
  nameservers(@CurrentPrincipal() p: Principal, @Param('id') id: string, @Body() body: NameserversDto) {
    return this.nameserverChanges.execute(p.workspaceId, id, body.nameservers);
  }

  @Post(':id/connect')
  @HttpCode(200)
  @Idempotent()
  connect(
    @CurrentPrincipal() p: Principal,
    @Param('id') id: string,
    @Body() body: AutoConnectDto,
    @Headers('idempotency-key') key?: string,
  ) {
    return this.connects.execute(p.workspaceId, id, body, key);
  }

  @Post(':id/renew')
  @HttpCode(200)
  @Idempotent()
  renew(
    @CurrentPrincipal() p: Principal,
    @Param('id') id: string,
    @Body() body: RenewPurchaseDto,
    @Headers('idempotency-key') key?: string,
  ) {
    return this.renewals.execute(p.workspaceId, id, body.years, key, body.maxTotalCents);
  }
}
