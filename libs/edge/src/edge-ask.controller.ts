import { Public } from '@app/auth';
import { Controller, Get, Query } from '@nestjs/common';
import { CertificateAsk } from './certificate-ask.usecase';
import { AskQueryDto } from './dto/ask-query.dto';

/** Caddy's `on_demand_tls { ask }`: 200 lets it get a certificate, anything else refuses. */
@Public()
@Controller('edge')
export class EdgeAskController {
  constructor(private readonly ask: CertificateAsk) {}

  @Get('ask')
  check(@Query() query: AskQueryDto) {
    return this.ask.check(query.domain);
  }
}
