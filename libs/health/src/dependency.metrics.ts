import { Bus } from '@app/bus';
import { metricsRegistry } from '@app/metrics';
import { DatabaseHealth } from '@app/persistence';
import { Injectable, OnModuleInit } from '@nestjs/common';
import { Gauge } from 'prom-client';

/** What /readyz checks, read at each scrape (the alerts on an unreachable database or NATS read it). */
let checks: { database(): Promise<boolean>; bus(): boolean } | undefined;

const up: Gauge = new Gauge({
  name: 'dependency_up',
  help: 'Whether this process reaches a dependency right now: database (select 1 within 2 s) or bus (NATS connected), 1 or 0',
  labelNames: ['dependency'],
  registers: [metricsRegistry],
  async collect() {
    if (!checks) return;
    up.set({ dependency: 'database' }, (await checks.database()) ? 1 : 0);
    up.set({ dependency: 'bus' }, checks.bus() ? 1 : 0);
  },
});

/** Binds the gauge to this process's database and bus. */
@Injectable()
export class DependencyMetrics implements OnModuleInit {
  constructor(
    private readonly database: DatabaseHealth,
    private readonly bus: Bus,
  ) {}

  onModuleInit(): void {
    checks = { database: () => this.database.check(), bus: () => this.bus.healthy() };
  }
}
