import type { MigrationObject } from '@mikro-orm/core';
import { Migration20261121000000Foundation } from './Migration20261121000000Foundation';
import { Migration20261121010000Actors } from './Migration20261121010000Actors';
import { Migration20261121020000Domains } from './Migration20261121020000Domains';
import { Migration20261121030000Certificates } from './Migration20261121030000Certificates';
import { Migration20261121040000Webhooks } from './Migration20261121040000Webhooks';
import { Migration20261121050000Limits } from './Migration20261121050000Limits';
import { Migration20261122000000MonitorIndex } from './Migration20261122000000MonitorIndex';
import { Migration20261122010000Purchases } from './Migration20261122010000Purchases';
import { Migration20261122011000SandboxProviders } from './Migration20261122011000SandboxProviders';
import { Migration20261122020000OAuth } from './Migration20261122020000OAuth';
import { Migration20261122021000Projects } from './Migration20261122021000Projects';
import { Migration20261125000000HostnameRelease } from './Migration20261125000000HostnameRelease';
import { Migration20261125000000Console } from './Migration20261125000000Console';
import { Migration20261125040000WebhookSecretOverlap } from './Migration20261125040000WebhookSecretOverlap';
import { Migration20261126000000ConsoleUsersSso } from './Migration20261126000000ConsoleUsersSso';
import { Migration20261126010000ConsoleOps } from './Migration20261126010000ConsoleOps';
import { Migration20261126020000HostnameSearchIndex } from './Migration20261126020000HostnameSearchIndex';
import { Migration20261127000000DomainSchedule } from './Migration20261127000000DomainSchedule';
import { Migration20261127100000IssuanceBuckets } from './Migration20261127100000IssuanceBuckets';
import { Migration20261127110000CertificateRenewal } from './Migration20261127110000CertificateRenewal';
import { Migration20261128000000PendingBackoff } from './Migration20261128000000PendingBackoff';
import { Migration20261129000000DnsChallenges } from './Migration20261129000000DnsChallenges';
import { Migration20261130000000HostnameSearchStatistics } from './Migration20261130000000HostnameSearchStatistics';
import { Migration20261201000000EdgeChanges } from './Migration20261201000000EdgeChanges';
import { Migration20261203000000TakeoverGuard } from './Migration20261203000000TakeoverGuard';
import { Migration20261204000000RegistrarDnsBackfill } from './Migration20261204000000RegistrarDnsBackfill';
import { Migration20261202010000ConsoleFlashes } from './Migration20261202010000ConsoleFlashes';
import { Migration20261205000000ScheduleWithoutForeignKey } from './Migration20261205000000ScheduleWithoutForeignKey';
import { Migration20261206000000ScheduleInMemory } from './Migration20261206000000ScheduleInMemory';
import { Migration20261207000000OutboxRelayWatermark } from './Migration20261207000000OutboxRelayWatermark';
import { Migration20261208000000EdgeChangesOnDomainRows } from './Migration20261208000000EdgeChangesOnDomainRows';

/** Every migration in order; listed explicitly so the compiled build needs no file globbing. */
export const MIGRATIONS: MigrationObject[] = [
  { name: 'Migration20261121000000Foundation', class: Migration20261121000000Foundation },
  { name: 'Migration20261121010000Actors', class: Migration20261121010000Actors },
  { name: 'Migration20261121020000Domains', class: Migration20261121020000Domains },
  { name: 'Migration20261121030000Certificates', class: Migration20261121030000Certificates },
  { name: 'Migration20261121040000Webhooks', class: Migration20261121040000Webhooks },
  { name: 'Migration20261121050000Limits', class: Migration20261121050000Limits },
  { name: 'Migration20261122000000MonitorIndex', class: Migration20261122000000MonitorIndex },
  { name: 'Migration20261122010000Purchases', class: Migration20261122010000Purchases },
  { name: 'Migration20261122011000SandboxProviders', class: Migration20261122011000SandboxProviders },
  { name: 'Migration20261122020000OAuth', class: Migration20261122020000OAuth },
  { name: 'Migration20261122021000Projects', class: Migration20261122021000Projects },
  { name: 'Migration20261125000000HostnameRelease', class: Migration20261125000000HostnameRelease },
  { name: 'Migration20261125000000Console', class: Migration20261125000000Console },
  { name: 'Migration20261125040000WebhookSecretOverlap', class: Migration20261125040000WebhookSecretOverlap },
  { name: 'Migration20261126000000ConsoleUsersSso', class: Migration20261126000000ConsoleUsersSso },
  { name: 'Migration20261126010000ConsoleOps', class: Migration20261126010000ConsoleOps },
  { name: 'Migration20261126020000HostnameSearchIndex', class: Migration20261126020000HostnameSearchIndex },
  { name: 'Migration20261127000000DomainSchedule', class: Migration20261127000000DomainSchedule },
  { name: 'Migration20261127100000IssuanceBuckets', class: Migration20261127100000IssuanceBuckets },
  { name: 'Migration20261127110000CertificateRenewal', class: Migration20261127110000CertificateRenewal },
  { name: 'Migration20261128000000PendingBackoff', class: Migration20261128000000PendingBackoff },
  { name: 'Migration20261129000000DnsChallenges', class: Migration20261129000000DnsChallenges },
  {
    name: 'Migration20261130000000HostnameSearchStatistics',
    class: Migration20261130000000HostnameSearchStatistics,
  },
  { name: 'Migration20261201000000EdgeChanges', class: Migration20261201000000EdgeChanges },
  { name: 'Migration20261202010000ConsoleFlashes', class: Migration20261202010000ConsoleFlashes },
  { name: 'Migration20261203000000TakeoverGuard', class: Migration20261203000000TakeoverGuard },
  { name: 'Migration20261204000000RegistrarDnsBackfill', class: Migration20261204000000RegistrarDnsBackfill },
  { name: 'Migration20261205000000ScheduleWithoutForeignKey', class: Migration20261205000000ScheduleWithoutForeignKey },
  { name: 'Migration20261206000000ScheduleInMemory', class: Migration20261206000000ScheduleInMemory },
  { name: 'Migration20261207000000OutboxRelayWatermark', class: Migration20261207000000OutboxRelayWatermark },
  { name: 'Migration20261208000000EdgeChangesOnDomainRows', class: Migration20261208000000EdgeChangesOnDomainRows },
];
