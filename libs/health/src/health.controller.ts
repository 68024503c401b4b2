import { Public } from '@app/auth';
import { Bus } from '@app/bus';
import { APP_CONFIG, AppConfig } from '@app/config';
import { DomainError } from '@app/kernel';
import { DatabaseHealth } from '@app/persistence';
import { Controller, Get, Inject } from '@nestjs/common';

type CheckState = 'ok' | 'down';

/**
 * Liveness answers while the process runs; readiness also needs the database and the bus, except
 * on the edge, which serves from its replicated copy through their outages (it reports them only):
 * an edge taken out of its Service for a database outage would take every customer's site with it.
 */
@Public()
@Controller()
export class HealthController {
  constructor(
    private readonly database: DatabaseHealth,
    private readonly bus: Bus,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  @Get('healthz')
  healthz(): { ok: true } {
    return { ok: true };
  }

  @Get('readyz')
  async readyz(): Promise<{ ok: true; checks: Record<string, CheckState> }> {
    const checks: Record<string, CheckState> = {
      database: (await this.database.check()) ? 'ok' : 'down',
      bus: this.bus.healthy() ? 'ok' : 'down',
    };
    const down = this.config.role === 'edge' ? [] : Object.keys(checks).filter((name) => checks[name] === 'down');
    if (down.length) {
      throw new DomainError('service_unavailable', `Not ready: ${down.join(' and ')} unavailable`, { checks });
    }
    return { ok: true, checks };
  }
}
