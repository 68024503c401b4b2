import { Public } from '@app/auth';
import { Controller, Get, Header } from '@nestjs/common';
import { Registry, collectDefaultMetrics } from 'prom-client';

/** One registry per process; features register their own metrics on it. */
export const metricsRegistry = new Registry();
collectDefaultMetrics({ register: metricsRegistry });

@Public()
@Controller()
export class MetricsController {
  @Get('metrics')
  @Header('content-type', metricsRegistry.contentType)
  metrics(): Promise<string> {
    return metricsRegistry.metrics();
  }
}
