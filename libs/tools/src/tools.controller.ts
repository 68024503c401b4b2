import { Public } from '@app/auth';
import { Controller, Get, Query } from '@nestjs/common';
import { CaaCheckTool } from './caa-check.service';
import { DnsLookupTool } from './dns-lookup.service';
import { DnsLookupQueryDto, HostnameQueryDto, PropagationQueryDto, TlsCheckQueryDto } from './dto/tools-query.dto';
import { PropagationTool } from './propagation.service';
import { ProviderDetectTool } from './provider-detect.service';
import { TlsCheckTool } from './tls-check.service';

/** Keyless diagnostics (SPEC 1, 5): no Authorization; limited per client IP (30/min, 500/day). */
@Controller('v1/tools')
@Public()
export class ToolsController {
  constructor(
    private readonly dns: DnsLookupTool,
    private readonly caa: CaaCheckTool,
    private readonly propagation: PropagationTool,
    private readonly tls: TlsCheckTool,
    private readonly providers: ProviderDetectTool,
  ) {}

  @Get('dns-lookup')
  lookup(@Query() q: DnsLookupQueryDto) {
    return this.dns.lookup(q.hostname, q.type);
  }

  @Get('caa-check')
  caaCheck(@Query() q: HostnameQueryDto) {
    return this.caa.check(q.hostname);
  }

  @Get('dns-provider')
  provider(@Query() q: HostnameQueryDto) {
    return this.providers.detect(q.hostname);
  }

  @Get('propagation')
  propagationCheck(@Query() q: PropagationQueryDto) {
    return this.propagation.check(q.hostname, q.type, q.expected);
  }

  @Get('tls-check')
  tlsCheck(@Query() q: TlsCheckQueryDto) {
    return this.tls.check(q.hostname, q.port);
  }
}
