import { ActorContext, ActorKind, Decision, OutboxEvent } from '@app/actors';
import { DnsProber, OriginPreflight, ServedCertificate, ServedCertificateProbe } from '@app/dns';
import { DomainEvent, DomainInput, DomainState, initialDomainState, transition } from '@app/domain-model';
import { wwwTwin } from '@app/edge';
import { DomainError, notFound } from '@app/http';
import type { SqlExecutor } from '@app/persistence';
import { hash53 } from '@app/actors';
import { DOMAIN_KIND, DomainCommand, DomainReply } from '../model/domain.protocol';
import { DomainRecord } from '../model/domain.record';
import { DomainStore } from '../store/domain.store';
import { certificateState, holdsCertificate, observedCertificate } from '../model/domain-certificate';
import { EdgeSettings, toDomainView } from '../model/domain.view';

type Ctx = ActorContext<DomainRecord>;
type Result = Decision<DomainRecord, DomainReply>;

/** Orders certificates in the background (CertificateManager on nodes). */
export interface CertificateRequester {
  /** `twin`: the www twin of a `redirectWww` domain, named too when its DNS points at the edge. */
  request(domain: { id: string; hostname: string; twin?: string }): void;
}

export interface DomainActorDeps {
  db: SqlExecutor;
  prober: DnsProber;
  preflight: OriginPreflight;
  /** Reads the certificate the hostname actually serves (checks only). */
  served?: ServedCertificateProbe;
  edge: EdgeSettings;
  monitorIntervalSeconds: number;
  certificates?: CertificateRequester;
  /** Renew from this many days before expiry. */
  renewDays: number;
}

/** After a refusal (CAA, policy) a new order waits this long, unless the customer asks for a check. */
const REFUSED_RETRY_MS = 60 * 60 * 1000;

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
    if ('workspaceId' in command && record.workspaceId !== command.workspaceId) throw notFound('Domain');
    switch (command.type) {
      case 'patch':
        return this.patch(ctx, record, command.changes);
      case 'delete': {
        const next = this.apply(ctx, record, { type: 'deleted' });
        return { ...next, reply: { deleted: true, id: record.id, hostname: record.hostname } };
      }
      case 'check':
        return this.withReply(this.probed(ctx, record, await this.observe(ctx, record), true));
      case 'observe': {
        const input: DomainInput = command.originBlocked
          ? { type: 'origin_blocked' }
          : {
              type: 'probe_observed',
              dns: command.dns,
              certificate: this.observedCertificate(ctx, record, command.served),
              problem: command.problem,
            };
        const next = this.probed(ctx, record, input);
        if (!next.events.length && sameMachine(record.machine, next.state.machine))
          return { reply: { unchanged: true } };
        return this.withReply(next);
      }
      case 'certificate':
        return this.withReply(this.certificate(ctx, record, command));
      case 'release':
        return this.withReply(this.release(ctx, record, command.hostname));
    }
  }

  /**
   * Applies a probe; with DNS right and no usable certificate, orders one in the background. After
   * a refusal the next order waits an hour (or until the customer asks for a check); after a CA
   * rate limit it waits as long as the CA said, check or not.
   */
  private probed(ctx: Ctx, record: DomainRecord, input: DomainInput, forced = false) {
    const next = this.apply(ctx, record, input);
    const cert = certificateState(record, ctx.now(), this.deps.renewDays);
    const retryAt = record.certificateRetryAt ? Date.parse(record.certificateRetryAt) : 0;
    const waiting = retryAt > ctx.now().getTime() && (!forced || record.certificateNote !== undefined);
    const ordering = input.type === 'probe_observed' && input.dns === 'correct' && !record.releasedAt;
    if (ordering && cert !== 'valid' && !waiting) {
      const twin = record.redirectWww ? wwwTwin(record.hostname) : undefined;
      this.deps.certificates?.request({ id: record.id, hostname: record.hostname, twin });
    }
    return next;
  }

  /** Idempotent: a second claimer's release of an already released domain changes nothing. */
  private release(ctx: Ctx, record: DomainRecord, hostname: string) {
    if (record.hostname !== hostname) throw notFound('Domain');
    if (record.releasedAt) return { state: record, events: [] };
    return this.apply(ctx, { ...record, releasedAt: ctx.now().toISOString() }, { type: 'hostname_claimed' });
  }

  private certificate(ctx: Ctx, record: DomainRecord, command: Extract<DomainCommand, { type: 'certificate' }>) {
    const cleared: DomainRecord = { ...record, certificateRetryAt: undefined, certificateNote: undefined };
    switch (command.result) {
      case 'issued':
        return this.apply(ctx, cleared, { type: 'certificate_issued', expiresAt: command.expiresAt });
      case 'failed': {
        const retryAt = new Date(ctx.now().getTime() + REFUSED_RETRY_MS).toISOString();
        return this.apply(
          ctx,
          { ...cleared, certificateRetryAt: retryAt },
          { type: 'certificate_failed', reason: command.reason },
        );
      }
      case 'deferred': {
        const note = `The certificate authority asked us to wait until ${command.retryAt}: ${command.reason}`;
        const state = {
          ...record,
          certificateRetryAt: command.retryAt,
          certificateNote: note,
          updatedAt: ctx.now().toISOString(),
        };
        return { state, events: [] };
      }
    }
  }

  private observedCertificate(ctx: Ctx, record: DomainRecord, served?: ServedCertificate['outcome']) {
    return observedCertificate(record, ctx.now(), this.deps.renewDays, served);
  }

  private async create(ctx: Ctx, command: Extract<DomainCommand, { type: 'create' }>): Promise<Result> {
    if (ctx.state) throw new DomainError('conflict', 'A domain with this id already exists');
    const taken = await this.deps.db.query(
      'select id from domains where hostname = ? and deleted_at is null and released_at is null',
      [command.hostname],
    );
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
  private async observe(ctx: Ctx, record: DomainRecord): Promise<DomainInput> {
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
    const served =
      probe.dns === 'correct' && holdsCertificate(record)
        ? await this.deps.served?.check(record.hostname, ctx.now())
        : undefined;
    return {
      type: 'probe_observed',
      dns: probe.dns,
      certificate: this.observedCertificate(ctx, record, served?.outcome),
      problem: probe.problem,
    };
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
