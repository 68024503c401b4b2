import { ConnectSessionAllowed, CurrentPrincipal, Principal, ScopeResourceOf } from '@app/auth';
import { Controller, Get, Param, Query } from '@nestjs/common';
import { ConnectInstructionsService } from './connect-instructions.service';
import { InstructionsQueryDto } from './dto/instructions-query.dto';

@Controller('v1/domains')
@ScopeResourceOf('domains')
export class InstructionsController {
  constructor(private readonly service: ConnectInstructionsService) {}

  @Get(':id/instructions')
  @ConnectSessionAllowed()
  async instructions(@CurrentPrincipal() p: Principal, @Param('id') id: string, @Query() query: InstructionsQueryDto) {
    const instructions = await this.service.instructions(p.workspaceId, id, {
      redirectUri: query.redirect_uri,
      state: query.state,
    });
    return { instructions };
  }
}
