import { ActorClient } from '@app/actors';
import { Bus } from '@app/bus';
import { APP_CONFIG, AppConfig } from '@app/config';
import { DnsLookupError, DnsResolver } from '@app/dns';
import { OwnershipChallenge, isWildcard, ownershipChallenge, ownershipKey, ownershipProven } from '@app/hostname-rules';
import { DomainError, publishEdgeInvalidation } from '@app/kernel';
import { Inject, Injectable, Logger } from '@nestjs/common';
import { DomainRepository } from '../store/domain.repository';
import { domainProtocol } from '../model/domain.protocol';

/**
 * Taking a hostname over from another workspace. A create that meets a hostname
 * held by another workspace answers 409 with `details.ownership`: a TXT record only the requester
 * can know. Once it resolves, the holder's actor fails its domain (`moved_to_another_owner`) and
 * lets the name go, every edge forgets its route, and the create runs again. The unique index on
 * live, unreleased hostnames decides races: of two claimers, one create wins and the other is 409.
 * Never within one workspace: there the conflict stays a plain 409.
 */
@Injectable()
export class HostnameClaims {
  private readonly logger = new Logger(HostnameClaims.name);
  private readonly key: Buffer;

  constructor(
    private readonly domains: DomainRepository,
    private readonly resolver: DnsResolver,
    private readonly actors: ActorClient,
    private readonly bus: Bus,
    @Inject(APP_CONFIG) config: AppConfig,
  ) {
    const secret = config.encryptionKey ?? config.signingSecret;
    if (!secret) throw new Error('ENCRYPTION_KEY (or SIGNING_SECRET) is needed for hostname ownership proofs');
    this.key = ownershipKey(secret);
  }

  challenge(workspaceId: string, hostname: string): OwnershipChallenge {
    return ownershipChallenge(this.key, workspaceId, hostname);
  }

  /**
   * `create` failed with `error`; when it is the hostname conflict with another workspace, either
   * takes the hostname over (TXT proven) and creates again, or throws the 409 with the proof to add.
   */
  async afterConflict<R>(error: unknown, workspaceId: string, hostname: string, create: () => Promise<R>): Promise<R> {
    if (!(error instanceof DomainError) || error.code !== 'conflict') throw error;
    if (error.details?.guardedUntil !== undefined) return this.pastGuard(error, workspaceId, hostname, create);
    const holder = await this.domains.holderOf(hostname);
    if (!holder || holder.workspaceId === workspaceId) throw error;
    const challenge = this.challenge(workspaceId, hostname);
    if (!(await this.proven(challenge))) throw this.conflict(hostname, challenge);
    // The holder's id comes from the table: it needs no shape check.
    await this.actors.ask(domainProtocol, holder.id, { type: 'release', hostname }, { attemptTimeoutMs: 15_000 });
    publishEdgeInvalidation(this.bus, hostname);
    this.logger.log({ hostname, from: holder.id, workspaceId }, 'Hostname moved to the workspace that proved control');
    return this.createAgain(hostname, challenge, create);
  }

  /**
   * The hostname's domain was deleted in another workspace while its DNS still pointed at us (the
   * takeover guard): whoever proves control of its DNS connects it, and the guard ends.
   */
  private async pastGuard<R>(error: DomainError, workspaceId: string, hostname: string, create: () => Promise<R>) {
    const guard = await this.domains.guardOf(hostname);
    if (!guard || guard.workspaceId === workspaceId) throw error;
    const challenge = this.challenge(workspaceId, hostname);
    if (!(await this.proven(challenge))) throw this.guarded(hostname, guard.until, challenge);
    await this.domains.releaseGuards(hostname);
    this.logger.log(
      { hostname, from: guard.id, workspaceId },
      'Takeover guard lifted by the workspace that proved control',
    );
    return this.createAgain(hostname, challenge, create);
  }

  private async createAgain<R>(hostname: string, challenge: OwnershipChallenge, create: () => Promise<R>): Promise<R> {
    try {
      return await create();
    } catch (second) {
      // Another claimer won the race meanwhile: it holds the name now, and this one may prove again.
      if (second instanceof DomainError && second.code === 'conflict') throw this.conflict(hostname, challenge);
      throw second;
    }
  }

  /**
   * A name under a wildcard another workspace holds (`shop.example.com` under `*.example.com`) is
   * connected only with the same ownership proof as a taken name; the wildcard keeps every other
   * name, and the exact one wins at the edge. Throws the 409 with the proof to add.
   */
  async underWildcard(workspaceId: string, hostname: string): Promise<void> {
    if (isWildcard(hostname) || !hostname.includes('.')) return;
    const wildcard = `*.${hostname.slice(hostname.indexOf('.') + 1)}`;
    const holder = await this.domains.holderOf(wildcard);
    if (!holder || holder.workspaceId === workspaceId) return;
    const challenge = this.challenge(workspaceId, hostname);
    if (await this.proven(challenge)) return;
    throw new DomainError(
      'conflict',
      `${hostname} is covered by ${wildcard}, connected in another workspace. To prove you control it, create the ` +
        `TXT record ${challenge.name} with the value ${challenge.value}, then send this request again`,
      { hostname, wildcard, ownership: challenge },
    );
  }

  /** A lookup that fails proves nothing: the answer is the same 409, to retry. */
  private async proven(challenge: OwnershipChallenge): Promise<boolean> {
    try {
      return ownershipProven(challenge, await this.resolver.txt(challenge.name));
    } catch (error) {
      if (!(error instanceof DnsLookupError)) throw error;
      this.logger.warn({ name: challenge.name, code: error.code }, 'Ownership TXT lookup failed');
      return false;
    }
  }

  private guarded(hostname: string, until: Date, ownership: OwnershipChallenge): DomainError {
    return new DomainError(
      'conflict',
      `${hostname} was disconnected from another workspace while its DNS still pointed at this service, and is ` +
        `kept for it until ${until.toISOString()}. To prove you control it, create the TXT record ${ownership.name} ` +
        `with the value ${ownership.value}, then send this request again`,
      { hostname, guardedUntil: until.toISOString(), ownership },
    );
  }

  private conflict(hostname: string, ownership: OwnershipChallenge): DomainError {
    return new DomainError(
      'conflict',
      `${hostname} is already connected in another workspace. To prove you control it, create the TXT record ` +
        `${ownership.name} with the value ${ownership.value}, then send this request again`,
      { hostname, ownership },
    );
  }
}
