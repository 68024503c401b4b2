import { DOMAIN_KIND } from '@app/kernel';
import { ActorContext, Decision, ProtocolActor, ProtocolHandlers, dispatch } from '@app/actors';
import {
  decideCertificate,
  decideCheck,
  decideCreate,
  decideDelete,
  decideObserve,
  decidePatch,
  decideRegistrarDns,
  decideRelease,
  liveRecord,
} from '../model/domain.decider';
import {
  DomainAnswers,
  DomainEffect,
  DomainEnv,
  DomainOutcome,
  DomainQuery,
  HostnameHold,
} from '../model/domain.effects';
import { DomainCommand, DomainProtocol, DomainReply } from '../model/domain.protocol';
import { DomainRecord } from '../model/domain.record';
import { firstCertificateSeconds } from '../model/time-to-https';
import { probePhaseOf } from './probe-phase';
import { TimeToHttpsMetrics } from './time-to-https.metrics';
import type { EdgeSettings } from '@app/kernel';
import { DomainStore, ScheduleListener } from '../store/domain.store';
import { DomainProbe } from './domain-probe';

type Ctx = ActorContext<DomainRecord>;

/** What a certificate order needs to know of its domain. */
type CertificateRequestOf = Omit<Extract<DomainEffect, { type: 'order_certificate' }>, 'type'>;

/** Orders certificates in the background (CertificateManager on nodes). */
interface CertificateRequester {
  /** `twin`: the www twin of a `redirectWww` domain, named too when its DNS points at the edge. */
  request(domain: CertificateRequestOf): void;
}

/** Where the actor's queries and effects go. */
export interface DomainActorDeps {
  hostnames: { hostnameTaken(hostname: string, workspaceId: string): Promise<HostnameHold> };
  probe: DomainProbe;
  certificates?: CertificateRequester;
  edge: EdgeSettings;
  monitorIntervalSeconds: number;
  /** Renew from this many days before expiry. */
  renewDays: number;
  /** How long a domain deleted with DNS still at the edge keeps its hostname from others (0: never). */
  takeoverGuardDays: number;
  /** Domains created and deleted by a group commit here (the monitor's schedule). */
  scheduleChanged?: ScheduleListener;
}

/**
 * The connected domain: a small runner of the pure decider (model/domain.decider.ts). It answers the
 * decider's queries (hostname taken, probe) through its ports, carries out the effects it returns
 * (certificate orders) and hands back the decision, which the host persists with its events.
 */
export class DomainActor implements ProtocolActor<DomainRecord, DomainProtocol> {
  readonly kind = DOMAIN_KIND;
  readonly store: DomainStore;
  /** Created with the actor, so the SLO's series exist (at zero) before the first certificate. */
  private readonly timeToHttps = TimeToHttpsMetrics.get();

  constructor(private readonly deps: DomainActorDeps) {
    this.store = new DomainStore(deps.scheduleChanged);
  }

  async handle(ctx: Ctx, command: DomainCommand): Promise<Decision<DomainRecord, DomainReply>> {
    return dispatch(this.handlers, ctx, command, undefined);
  }

  private readonly handlers: ProtocolHandlers<DomainRecord, DomainProtocol> = {
    create: (ctx, command) => this.run(ctx, (env, answers) => decideCreate(ctx.state, command, env, answers)),
    patch: (ctx, command) => this.onLive(ctx, command, (record, env) => decidePatch(record, command, env)),
    delete: (ctx, command) => this.onLive(ctx, command, decideDelete),
    check: (ctx, command) => this.onLive(ctx, command, (record, env, answers) => decideCheck(record, env, answers)),
    observe: (ctx, command) => this.onLive(ctx, command, (record, env) => decideObserve(record, command, env)),
    certificate: async (ctx, command) => {
      const before = ctx.state?.machine;
      const decision = await this.onLive(ctx, command, (record, env) => decideCertificate(record, command, env));
      const seconds = firstCertificateSeconds(before, command, ctx.now());
      if (seconds !== undefined) this.timeToHttps.seconds.observe(seconds);
      return decision;
    },
    release: (ctx, command) => this.onLive(ctx, command, (record, env) => decideRelease(record, command, env)),
    registrar_dns: (ctx, command) =>
      this.onLive(ctx, command, (record, env) => decideRegistrarDns(record, command, env)),
  };

  /** A command to an existing domain: 404 for a missing, deleted or other workspace's domain. */
  private async onLive<R>(
    ctx: Ctx,
    command: DomainCommand,
    decide: (record: DomainRecord, env: DomainEnv, answers: DomainAnswers) => DomainOutcome<R>,
  ): Promise<Decision<DomainRecord, R>> {
    const record = liveRecord(ctx.state, command);
    return this.run(ctx, (env, answers) => decide(record, env, answers));
  }

  /**
   * Decides, answering each query the decider asks first; the effects it returned run once the
   * decision is stored (a create whose write lost to another orders no certificate).
   */
  private async run<R>(
    ctx: Ctx,
    decide: (env: DomainEnv, answers: DomainAnswers) => DomainOutcome<R>,
  ): Promise<Decision<DomainRecord, R>> {
    const answers: DomainAnswers = {};
    for (;;) {
      const outcome = decide(this.env(ctx), answers);
      if ('decision' in outcome) {
        const { decision, effects } = outcome;
        if (!effects.length) return decision;
        return { ...decision, afterWrite: () => effects.forEach((effect) => this.carryOut(effect)) };
      }
      await this.answer(ctx, outcome.need, answers);
    }
  }

  private async answer(ctx: Ctx, query: DomainQuery, answers: DomainAnswers): Promise<void> {
    switch (query.type) {
      case 'hostname_taken':
        answers.hostnameTaken = await this.deps.hostnames.hostnameTaken(query.hostname, query.workspaceId);
        return;
      case 'dns':
        answers.dns = await this.deps.probe.dns(query.hostname);
        return;
      case 'probe':
        answers.probe = await this.deps.probe.probe(
          query.hostname,
          query.originUrl,
          query.readServedCertificate,
          () => ctx.now(),
          query.delegation,
        );
        return;
    }
  }

  private carryOut(effect: DomainEffect): void {
    switch (effect.type) {
      case 'order_certificate':
        this.deps.certificates?.request({
          id: effect.id,
          hostname: effect.hostname,
          workspaceId: effect.workspaceId,
          failures: effect.failures,
          twin: effect.twin,
        });
        return;
    }
  }

  /** Read afresh on every decision: a query may have taken a while (a probe reads DNS and TLS). */
  private env(ctx: Ctx): DomainEnv {
    const { edge, renewDays, takeoverGuardDays } = this.deps;
    return { id: ctx.id, now: ctx.now(), edge, renewDays, takeoverGuardDays, probePhase: probePhaseOf(ctx.id) };
  }
}
