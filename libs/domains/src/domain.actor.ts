import { ActorContext, ActorKind, Decision, OutboxEvent } from '@app/actors';
import { DnsProber, OriginPreflight } from '@app/dns';
import { DomainEvent, DomainInput, DomainState, initialDomainState, transition } from '@app/domain-model';
import { DomainError, notFound } from '@app/http';
import type { SqlExecutor } from '@app/persistence';
import { hash53 } from '@app/actors';
import { DOMAIN_KIND, DomainCommand, DomainReply } from './domain.commands';
import { DomainRecord } from './domain.record';
import { DomainStore } from './domain.store';
import { EdgeSettings, toDomainView } from './domain.view';

type Ctx = ActorContext<DomainRecord>;
type Result = Decision<DomainRecord, DomainReply>;

export interface DomainActorDeps {
  db: SqlExecutor;
  prober: DnsProber;
  preflight: OriginPreflight;
  edge: EdgeSettings;
  monitorIntervalSeconds: number;
}

/** Whether anything but the probe time moved: unchanged observations are not written. */
const sameMachine = (a: DomainState, b: DomainState) =>
  JSON.stringify({ ...a, lastProbeAt: undefined }) === JSON.stringify({ ...b, lastProbeAt: undefined });

/** The connected domain: owns its settings and state machine; every change is persisted with its events. */
export class DomainActor implements ActorKind<DomainRecord, DomainCommand, DomainReply> {
  readonly kind = DOMAIN_KIND;
  readonly store: DomainStore;

  constructor(private readonly deps: DomainActorDeps) {
    this.store = new DomainStore(Math.min(10, deps.monitorIntervalSeconds));
  }

  async handle(ctx: Ctx, command: DomainCommand): Promise<Result> {
    if (command.type === 'create') return this.create(ctx, command);
    const record = ctx.state;
    if (!record || record.machine.deleted) throw notFound('Domain');
    if (command.type !== 'observe' && record.workspaceId !== command.workspaceId) throw notFound('Domain');
    switch (command.type) {
      case 'patch':
        return this.patch(ctx, record, command.changes);
      case 'delete': {
        const next = this.apply(ctx, record, { type: 'deleted' });
        return { ...next, reply: { deleted: true, id: record.id, hostname: record.hostname } };
      }
      case 'check':
        return this.withReply(this.apply(ctx, record, await this.observe(record)));
      case 'observe': {
        const input: DomainInput = command.originBlocked
          ? { type: 'origin_blocked' }
          : { type: 'probe_observed', dns: command.dns, certificate: 'none' };
        const next = this.apply(ctx, record, input);
        if (!next.events.length && sameMachine(record.machine, next.state.machine))
          return { reply: { unchanged: true } };
        return this.withReply(next);
      }
    }
  }

  private async create(ctx: Ctx, command: Extract<DomainCommand, { type: 'create' }>): Promise<Result> {
    if (ctx.state) throw new DomainError('conflict', 'A domain with this id already exists');
    const taken = await this.deps.db.query('select id from domains where hostname = ? and deleted_at is null', [
      command.hostname,
    ]);
    if (taken.length)
      throw new DomainError('conflict', `${command.hostname} is already connected`, { hostname: command.hostname });
    const now = ctx.now().toISOString();
    const record: DomainRecord = {
      ...command.settings,
      id: ctx.id,
      workspaceId: command.workspaceId,
      hostname: command.hostname,
      apex: command.apex,
      probePhase: (hash53(ctx.id, 7) % 1_000_000) / 1_000_000,
      machine: initialDomainState(ctx.now()),
      createdAt: now,
      updatedAt: now,
    };
    const domain = toDomainView(record, this.deps.edge);
    return {
      state: record,
      events: [{ type: 'domain.created', workspaceId: record.workspaceId, data: { domain } }],
      reply: { domain },
    };
  }

  private patch(ctx: Ctx, record: DomainRecord, changes: Partial<DomainRecord>): Result {
    const updated: DomainRecord = { ...record, ...changes, updatedAt: ctx.now().toISOString() };
    // The API ran the SSRF preflight on a new origin before sending it: it is allowed.
    const next = changes.originUrl
      ? this.apply(ctx, updated, { type: 'origin_allowed' })
      : { state: updated, events: [] };
    return this.withReply(next);
  }

  /** The same probe the monitor runs, now: DNS against the edge, and the origin against the SSRF rules. */
  private async observe(record: DomainRecord): Promise<DomainInput> {
    const blocked = await this.deps.preflight.check(record.originUrl).then(
      () => false,
      (error: unknown) =>
        error instanceof DomainError && error.code === 'preflight_failed' && error.details?.reason === 'ssrf_blocked',
    );
    if (blocked) return { type: 'origin_blocked' };
    const probe = await this.deps.prober.probe(record.hostname).catch((error: unknown) => {
      throw new DomainError(
        'service_unavailable',
        `DNS lookup failed: ${error instanceof Error ? error.message : 'unknown'}`,
      );
    });
    return { type: 'probe_observed', dns: probe.dns, certificate: 'none' };
  }

  private apply(ctx: Ctx, record: DomainRecord, input: DomainInput): { state: DomainRecord; events: OutboxEvent[] } {
    const now = ctx.now();
    const result = transition(record.machine, input, now);
    const verifiedNow = result.state.status === 'verified' && record.machine.status !== 'verified';
    const state: DomainRecord = {
      ...record,
      machine: result.state,
      updatedAt: result.events.length ? now.toISOString() : record.updatedAt,
      verifiedAt: verifiedNow && !record.verifiedAt ? now.toISOString() : record.verifiedAt,
    };
    return { state, events: result.events.map((event) => this.outboxEvent(state, event)) };
  }

  private outboxEvent(record: DomainRecord, event: DomainEvent): OutboxEvent {
    const { type, previousStatus, reason, certificateRenewed } = event;
    return {
      type,
      workspaceId: record.workspaceId,
      data: { domain: toDomainView(record, this.deps.edge), previousStatus, reason, certificateRenewed },
    };
  }

  private withReply(next: { state: DomainRecord; events: OutboxEvent[] }): Result {
    return { ...next, reply: { domain: toDomainView(next.state, this.deps.edge) } };
  }
}
