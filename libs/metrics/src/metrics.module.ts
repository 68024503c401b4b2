import { Module } from '@nestjs/common';
import { MetricsController } from './metrics.controller';

/** GET /metrics: the process's registry in the Prometheus text format. */
@Module({ controllers: [MetricsController] })
export class MetricsModule {}
