import { MikroORM } from '@mikro-orm/core';
import { Inject, Injectable, Logger, OnModuleInit } from '@nestjs/common';
import { runMigrations } from './migrate';
import { DatabaseTarget } from './orm-options';

export const DATABASE_TARGET = Symbol('DATABASE_TARGET');
export const MIGRATE_ON_START = Symbol('MIGRATE_ON_START');

/** Brings the schema up to date before any module starts serving. */
@Injectable()
export class MigrationRunner implements OnModuleInit {
  private readonly logger = new Logger(MigrationRunner.name);

  constructor(
    private readonly orm: MikroORM,
    @Inject(DATABASE_TARGET) private readonly target: DatabaseTarget,
    @Inject(MIGRATE_ON_START) private readonly enabled: boolean,
  ) {}

  async onModuleInit(): Promise<void> {
    if (!this.enabled) return;
    const applied = await runMigrations(this.orm, this.target);
    if (applied.length) this.logger.log(`Applied migrations: ${applied.join(', ')}`);
  }
}
