import { ScopeResourceOf } from '@app/auth';
import { Body, Controller, HttpCode, Post } from '@nestjs/common';
import { CheckRecordsBatchDto, CheckRecordsDto } from './dto/check-records.dto';
import { RecordChecks } from './record-checks.service';

/** SPEC 4.5 `/v1/dns/check-records-*`: read-only checks, so 200 and not idempotency-keyed. 600/hour per key. */
@Controller('v1/dns')
@ScopeResourceOf('dns')
export class RecordChecksController {
  constructor(private readonly checks: RecordChecks) {}

  @Post('check-records-single')
  @HttpCode(200)
  single(@Body() body: CheckRecordsDto) {
    return this.checks.single(body);
  }

  @Post('check-records-batch')
  @HttpCode(200)
  batch(@Body() body: CheckRecordsBatchDto) {
    return this.checks.batch(body.checks);
  }
}
