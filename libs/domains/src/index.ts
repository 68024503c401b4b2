/**
 * What other libs use of connected domains: the modules, the read side, the actor's protocol, and the
 * state machine's vocabulary (statuses for the edge, the console and the API documents).
 */
export { DomainsApiModule, DomainsNodeModule } from './domains.module';
export { DomainReadFastPath } from './api/domain-read.fast-path';
export { DomainCreateFastPath } from './api/domain-create.fast-path';
export { DomainCommands } from './api/domain-commands';
export { CreateDomainDto } from './api/dto/create-domain.dto';
export { UpdateDomainDto } from './api/dto/update-domain.dto';
export { domainProtocol } from './model/domain.protocol';
export type { DomainCommand } from './model/domain.protocol';
export { DEFAULT_SETTINGS, DOMAIN_MODES, REDIRECT_STATUSES } from './model/domain.record';
export type { DomainRecord, TakeoverGuard } from './model/domain.record';
export {
  DNS_RECORD_PURPOSES,
  DNS_RECORD_VIEW_TYPES,
  dnsRecordSchema,
  domainSchema,
  requiredDnsRecords,
  toDomainView,
} from './model/domain.view';
export type { DnsRecordView, DomainView } from './model/domain.view';
export { transition } from './model/domain.machine';
export { DOMAIN_STATUSES, MONITOR_STATUSES, STATUS_REASONS } from './model/domain.types';
export type { DomainState, DomainStatus, MonitorStatus } from './model/domain.types';
export { registrarDnsMessage } from './model/monitor-message';
export { probePhaseOf } from './node/probe-phase';
export { DomainRepository } from './store/domain.repository';
/** The monitor's read of due domains and its shard loads, measured by the benchmarks. */
export { shardDomains } from './store/monitor.queries';
