import { Public } from '@app/auth';
import { Bus } from '@app/bus';
import { DomainError } from '@app/kernel';
import { DatabaseHealth } from '@app/persistence';
import { Controller, Get } from '@nestjs/common';

type CheckState = 'ok' | 'down';

/** Liveness answers while the process runs; readiness also needs the database and the bus. */
@Public()
@Controller()
export class HealthController {
  constructor(
    private readonly database: DatabaseHealth,
    private readonly bus: Bus,
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
    const down = Object.keys(checks).filter((name) => checks[name] === 'down');
    if (down.length) {
      throw new DomainError('service_unavailable', `Not ready: ${down.join(' and ')} unavailable`, { checks });
    }
    return { ok: true, checks };
  }
}
