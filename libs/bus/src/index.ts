export { Bus, NoRespondersError, RequestTimeoutError } from './bus';
export { InProcessBus } from './in-process.bus';
export { NatsBus } from './nats.bus';
export { BusModule } from './bus.module';
