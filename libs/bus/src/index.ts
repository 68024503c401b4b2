/** Request/reply and publish over NATS, or in process when no NATS URL is configured. */
export { BusModule } from './bus.module';
export { Bus, NoRespondersError, RequestTimeoutError } from './bus';
// Implementations
export { InProcessBus } from './in-process.bus';
export { NatsBus } from './nats.bus';
