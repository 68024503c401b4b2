import { DynamicModule, Global, Inject, Module, OnApplicationShutdown } from '@nestjs/common';
import { Bus } from './bus';
import { InProcessBus } from './in-process.bus';
import { NatsBus } from './nats.bus';

export interface BusOptions {
  /** Unset: the in-process bus. */
  natsUrls?: string[];
  /** The connection's name as NATS monitoring shows it. */
  name: string;
  /** Namespace of every subject, for deployments sharing one NATS. */
  subjectPrefix?: string;
}

@Global()
@Module({})
export class BusModule implements OnApplicationShutdown {
  constructor(@Inject(Bus) private readonly bus: Bus) {}

  static forRoot(options: BusOptions): DynamicModule {
    return {
      module: BusModule,
      providers: [
        {
          provide: Bus,
          useFactory: async (): Promise<Bus> =>
            options.natsUrls
              ? NatsBus.connect(options.natsUrls, options.name, options.subjectPrefix)
              : new InProcessBus(),
        },
      ],
      exports: [Bus],
    };
  }

  async onApplicationShutdown(): Promise<void> {
    await this.bus.close();
  }
}
