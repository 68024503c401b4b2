import { ActorClient } from '@app/actors';
import { Bus } from '@app/bus';
import { OriginPreflight } from '@app/dns';
import { DEFAULT_SETTINGS, DomainCommand, domainProtocol } from '@app/domains';
import { DomainError, databaseDataError, publishEdgeInvalidation } from '@app/kernel';
import { PaymentDeclinedError, Payments, RefundRefusedError } from '@app/payments';
import type { SqlExecutor } from '@app/persistence';
import { Registrar, RegistrarRefusedError } from '@app/registrar';
import { Logger } from '@nestjs/common';
import { PurchaseEffect } from '../model/purchase-decisions.types';
import { SagaEffect, SagaEvent } from '../model/purchase-saga.types';
import { registrarFailure } from '../purchase-quote';
import { EdgeTarget, mergeRoutingRecords } from '../model/routing-records';
import { liveDomainExists, savedCard } from '../store/purchase-lookups.queries';
import { PurchaseRecord, connectedDomainIdOf } from '../model/purchase.record';

export interface PurchaseEffectDeps {
  db: SqlExecutor;
  registrar: Registrar;
  payments: Payments;
  actors: ActorClient;
  preflight: OriginPreflight;
  bus: Bus;
  edge: EdgeTarget;
}

const originLookupFailed = (error: DomainError) => error.details?.reason === 'origin_lookup_failed';

const message = (error: unknown) => (error instanceof Error ? error.message : String(error));

/**
 * Why a step can never succeed, when `error` is the database refusing a value for good (a data error,
 * not an outage); undefined for any other error.
 */
export function permanentFailure(error: unknown): string | undefined {
  const refused = databaseDataError(error);
  if (!refused) return undefined;
  return `the database refuses a value of this purchase (${refused.field ?? 'a value'} ${refused.problem}, SQLSTATE ${refused.sqlstate})`;
}

/**
 * Runs one saga effect against the outside world and reports its outcome as a saga event. Every
 * effect is safe to run again after a crash: charges and refunds carry keys derived from the
 * purchase and step, registration asks the registrar first, the Domain's id is derived from the
 * purchase, and the routing merge is idempotent. Also carries out a command's effects
 * (`carryOut`: new nameservers), whose failure fails the command.
 */
export class PurchaseEffects {
  private readonly logger = new Logger(PurchaseEffects.name);

  constructor(private readonly deps: PurchaseEffectDeps) {}

  async run(effect: SagaEffect, record: PurchaseRecord): Promise<SagaEvent> {
    try {
      return await this.execute(effect, record);
    } catch (error) {
      // A value the database refuses is refused on every retry: the saga compensates instead.
      const permanent = permanentFailure(error);
      if (permanent) {
        this.logger.error({ purchaseId: record.id, effect, reason: permanent }, 'Purchase effect failed for good');
        return { type: 'effect_failed', effect, reason: permanent };
      }
      this.logger.warn({ err: error, purchaseId: record.id, effect }, 'Purchase effect could not run; retried later');
      return { type: 'effect_unavailable', effect, reason: message(error) };
    }
  }

  private execute(effect: SagaEffect, record: PurchaseRecord): Promise<SagaEvent> {
    switch (effect) {
      case 'charge':
        return this.charge(record);
      case 'register':
        return this.register(record);
      case 'create_domain':
        return this.createDomain(record);
      case 'set_routing':
        return this.setRouting(record);
      case 'remove_domain':
        return this.removeDomain(record);
      case 'refund':
        return this.refund(record.saga.chargeId, `purchase:${record.id}:refund`);
    }
  }

  private async charge(record: PurchaseRecord): Promise<SagaEvent> {
    const card = await savedCard(this.deps.db, record.workspaceId);
    if (!card) return { type: 'charge_declined', reason: 'no_payment_method: the workspace has no saved card' };
    try {
      const charge = await this.deps.payments.charge({
        paymentMethod: card,
        amountCents: record.totalCents,
        currency: 'USD',
        idempotencyKey: `purchase:${record.id}:charge`,
        description: `Registration of ${record.hostname} for ${record.years} year(s)`,
        metadata: { purchaseId: record.id, workspaceId: record.workspaceId, hostname: record.hostname },
      });
      return { type: 'charged', chargeId: charge.chargeId };
    } catch (error) {
      if (error instanceof PaymentDeclinedError)
        return { type: 'charge_declined', reason: `${error.reason}: ${error.message}` };
      throw error;
    }
  }

  private async register(record: PurchaseRecord): Promise<SagaEvent> {
    // A crash between the registrar's yes and our checkpoint must not register twice.
    const held = await this.deps.registrar.findRegistration(record.hostname);
    const registration =
      held ??
      (await this.deps.registrar
        .register({
          hostname: record.hostname,
          years: record.years,
          registrant: record.registrant,
          whoisPrivacy: record.whoisPrivacyEnabled,
        })
        .catch((error: unknown) => {
          if (error instanceof RegistrarRefusedError) return error;
          throw error;
        }));
    if (registration instanceof RegistrarRefusedError)
      return { type: 'registration_refused', reason: registration.reason };
    return {
      type: 'registered',
      registrarDomainId: registration.registrarDomainId,
      expiresAt: new Date(registration.expiresAt).toISOString(),
    };
  }

  private async createDomain(record: PurchaseRecord): Promise<SagaEvent> {
    const settings = record.autoConnect;
    if (!settings) return { type: 'connect_failed', reason: 'autoConnect settings are missing' };
    const domainId = connectedDomainIdOf(record.id, record.saga.connectAttempts);
    try {
      // The origin passed the SSRF rules at purchase time; its DNS may have changed since.
      await this.deps.preflight.check(settings.originUrl, 'autoConnect.originUrl');
      const command: DomainCommand = {
        type: 'create',
        workspaceId: record.workspaceId,
        hostname: record.hostname,
        apex: true,
        // The routing step points www at the edge too: redirecting it to the apex makes it serve (and the
        // certificate manager names it in the certificate once its CNAME resolves).
        settings: {
          ...DEFAULT_SETTINGS,
          originUrl: settings.originUrl,
          keepHost: settings.keepHost,
          redirectWww: true,
        },
        // The routing step writes its records at our registrar: the owner is asked for nothing.
        ...(record.nameservers.length ? {} : { registrarDns: { purchaseId: record.id } }),
      };
      await this.deps.actors.ask(domainProtocol, domainId, command, { attemptTimeoutMs: 15_000 });
      return { type: 'domain_created', domainId };
    } catch (error) {
      // An outage, or a lookup of the origin that failed (a timeout, SERVFAIL: "try again"), is retried
      // later like any provider outage; only an answer (blocked, no address, refused) fails the connect.
      if (!(error instanceof DomainError) || error.code === 'service_unavailable' || originLookupFailed(error))
        throw error;
      if (await this.domainExists(domainId)) return { type: 'domain_created', domainId };
      return { type: 'connect_failed', reason: error.message, code: error.code, details: error.details };
    }
  }

  /** A command's effect; an error is the command's (nothing of it is stored). */
  async carryOut(effect: PurchaseEffect): Promise<void> {
    switch (effect.type) {
      case 'set_nameservers':
        await this.deps.registrar.setNameservers(effect.hostname, effect.nameservers).catch(registrarFailure);
        return;
      case 'registrar_dns':
        return this.tellDomainWhoseDns(effect);
    }
  }

  /** A deleted Domain has nothing to be told. */
  private async tellDomainWhoseDns(effect: Extract<PurchaseEffect, { type: 'registrar_dns' }>): Promise<void> {
    const command = {
      type: 'registrar_dns' as const,
      workspaceId: effect.workspaceId,
      registrarDns: effect.registrarDns,
    };
    const told = await this.deps.actors.ask(domainProtocol, effect.domainId, command).then(
      () => true,
      (error: unknown) => {
        if (error instanceof DomainError && error.code === 'not_found') return false;
        throw error;
      },
    );
    // Every api's cached view of the domain is dropped (the domain's writers tell them after a commit).
    if (told) publishEdgeInvalidation(this.deps.bus, effect.hostname);
  }

  private async domainExists(domainId: string): Promise<boolean> {
    return liveDomainExists(this.deps.db, domainId);
  }

  private async setRouting(record: PurchaseRecord): Promise<SagaEvent> {
    try {
      const current = await this.deps.registrar.getDnsRecords(record.hostname);
      await this.deps.registrar.setDnsRecords(record.hostname, mergeRoutingRecords(current, this.deps.edge));
      return { type: 'routing_set' };
    } catch (error) {
      if (error instanceof RegistrarRefusedError) {
        const details = { reason: error.reason, registrarCode: error.registrarCode };
        return { type: 'connect_failed', reason: error.reason, code: 'registrar_error', details };
      }
      throw error;
    }
  }

  private async removeDomain(record: PurchaseRecord): Promise<SagaEvent> {
    const domainId = record.saga.connectedDomainId ?? connectedDomainIdOf(record.id, record.saga.connectAttempts);
    const command: DomainCommand = { type: 'delete', workspaceId: record.workspaceId };
    try {
      await this.deps.actors.ask(domainProtocol, domainId, command, { attemptTimeoutMs: 15_000 });
    } catch (error) {
      if (!(error instanceof DomainError && error.code === 'not_found')) throw error;
    }
    publishEdgeInvalidation(this.deps.bus, record.hostname);
    return { type: 'domain_removed' };
  }

  /** Also used by renewals (with their own key). */
  async refund(chargeId: string | undefined, idempotencyKey: string): Promise<SagaEvent> {
    if (!chargeId) throw new Error('Nothing to refund: no charge recorded');
    try {
      const { refundId } = await this.deps.payments.refund({ chargeId, idempotencyKey });
      return { type: 'refunded', refundId };
    } catch (error) {
      // Refunded already (by this key before a crash, or by hand): the money is back either way.
      if (error instanceof RefundRefusedError && error.reason === 'charge_already_refunded')
        return { type: 'refunded', refundId: `already_refunded:${chargeId}` };
      throw error;
    }
  }
}
