import { CLOCK, SystemClock } from '@app/kernel';
import { Global, Module } from '@nestjs/common';

/** The process's one clock, for every lib that reads time; tests override `CLOCK` to move it. */
@Global()
@Module({ providers: [{ provide: CLOCK, useClass: SystemClock }], exports: [CLOCK] })
export class ClockModule {}
