import { Module } from '@nestjs/common';
import { DependencyMetrics } from './dependency.metrics';
import { HealthController } from './health.controller';

@Module({ controllers: [HealthController], providers: [DependencyMetrics] })
export class HealthModule {}
