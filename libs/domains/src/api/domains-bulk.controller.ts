import { CurrentPrincipal, Principal, ScopeResourceOf } from '@app/auth';
import { Idempotent } from '@app/limits';
import { Body, Controller, HttpCode, Post, Req } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { BulkCreateDomains } from './bulk-create.usecase';
import { BulkCreateDomainsDto } from './dto/bulk-create-domains.dto';

@Controller('v1/domains/bulk')
@ScopeResourceOf('domains')
export class DomainsBulkController {
  constructor(private readonly bulk: BulkCreateDomains) {}

  /** 200 with a result per item, even when some (or all) items failed: the statuses are in the items. */
  @Post()
  @HttpCode(200)
  @Idempotent()
  create(@CurrentPrincipal() p: Principal, @Body() body: BulkCreateDomainsDto, @Req() request: FastifyRequest) {
    return this.bulk.create(p.workspaceId, body.domains, request.id);
  }
}
