import { Public } from '@app/auth';
import { Controller, Get, Header } from '@nestjs/common';
import './http.metrics';
import { metricsRegistry } from './metrics-registry';

@Public()
@Controller()
export class MetricsController {
  @Get('metrics')
  @Header('content-type', metricsRegistry.contentType)
  metrics(): Promise<string> {
    return metricsRegistry.metrics();
  }
}
