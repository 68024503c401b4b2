import { Bus } from '@app/bus';
import { APP_CONFIG, AppConfig } from '@app/config';
import { PROCESS_STATUS_SUBJECT, ProcessStatus } from '@app/kernel';
import { Inject, Injectable, OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import { hostname } from 'node:os';

/**
 * Answers "who is there?" on the bus for this process, whatever its role: the cluster page lists the
 * api and edge processes beside the nodes (which answer their own, richer status too).
 */
@Injectable()
export class ProcessPresence implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly status: ProcessStatus;
  private stop?: () => void;

  constructor(
    private readonly bus: Bus,
    @Inject(APP_CONFIG) config: AppConfig,
  ) {
    const startedAt = new Date(Date.now() - process.uptime() * 1000).toISOString();
    this.status = { role: config.role, nodeId: config.nodeId, host: hostname(), pid: process.pid, startedAt };
  }

  onApplicationBootstrap(): void {
    this.stop = this.bus.serve(PROCESS_STATUS_SUBJECT, async () => this.status);
  }

  onModuleDestroy(): void {
    this.stop?.();
  }
}
