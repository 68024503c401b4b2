import { ConnectSessionAllowed, CurrentPrincipal, Principal, ScopeResourceOf } from '@app/auth';
import { Body, Controller, HttpCode, Param, Post } from '@nestjs/common';
import { DnsApply } from './dns-apply.usecase';
import { DnsApplyDto } from './dto/dns-apply.dto';

@Controller('v1/domains')
@ScopeResourceOf('domains')
export class DnsApplyController {
  constructor(private readonly dnsApply: DnsApply) {}

  @Post(':id/dns/apply')
  @HttpCode(200)
  @ConnectSessionAllowed()
  apply(@CurrentPrincipal() p: Principal, @Param('id') id: string, @Body() body: DnsApplyDto) {
    return this.dnsApply.apply(p.workspaceId, id, body.provider, body.token);
  }
}
