import { DnsModule } from '@app/dns';
import { Module } from '@nestjs/common';
import { CaaCheckTool } from './caa-check.service';
import { DnsLookupTool } from './dns-lookup.service';
import { PropagationTool } from './propagation.service';
import { RecordChecks } from './record-checks.service';
import { RecordChecksController } from './record-checks.controller';
import { TlsCheckTool } from './tls-check.service';
import { ToolsController } from './tools.controller';

/** The keyless `/v1/tools/*` (api, standalone). */
@Module({
  imports: [DnsModule],
  controllers: [ToolsController],
  providers: [DnsLookupTool, CaaCheckTool, PropagationTool, TlsCheckTool],
})
export class ToolsApiModule {}

/** `/v1/dns/check-records-*` (api, standalone). */
@Module({ imports: [DnsModule], controllers: [RecordChecksController], providers: [RecordChecks] })
export class RecordChecksApiModule {}
