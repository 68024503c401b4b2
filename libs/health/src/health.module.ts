import { Module } from '@nestjs/common';
import { DependencyMetrics } from './dependency.metrics';
import { HealthController } from './health.controller';
import { ProcessPresence } from './process-presence';

@Module({ controllers: [HealthController], providers: [DependencyMetrics, ProcessPresence] })
export class HealthModule {}
