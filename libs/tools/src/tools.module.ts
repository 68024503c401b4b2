import { ProviderDetector } from '@app/connect';
import { DnsModule, DnsResolver } from '@app/dns';
import { Module } from '@nestjs/common';
import { CaaCheckTool } from './caa-check.service';
import { DnsLookupTool } from './dns-lookup.service';
import { PropagationTool } from './propagation.service';
import { ProviderDetectTool } from './provider-detect.service';
import { RecordChecks } from './record-checks.service';
import { RecordChecksController } from './record-checks.controller';
import { TlsCheckTool } from './tls-check.service';
import { ToolsController } from './tools.controller';

/** The keyless `/v1/tools/*` (api, standalone). */
@Module({
  imports: [DnsModule],
  controllers: [ToolsController],
  providers: [
    DnsLookupTool,
    CaaCheckTool,
    PropagationTool,
    TlsCheckTool,
    ProviderDetectTool,
    // Its own detector (and short cache): the connect module's comes with the domains API it needs.
    { provide: ProviderDetector, inject: [DnsResolver], useFactory: (r: DnsResolver) => new ProviderDetector(r) },
  ],
})
export class ToolsApiModule {}

/** `/v1/dns/check-records-*` (api, standalone). */
@Module({
  imports: [DnsModule],
  controllers: [RecordChecksController],
  providers: [RecordChecks],
  exports: [RecordChecks],
})
export class RecordChecksApiModule {}
