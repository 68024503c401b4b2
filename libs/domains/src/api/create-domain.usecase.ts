import { PreflightWarning } from '@app/hostname-rules';
import { DomainError } from '@app/kernel';
import { idempotentId } from '@app/persistence';
import { WorkspaceRepository } from '@app/workspaces';
import { APP_CONFIG, AppConfig } from '@app/config';
import { Inject, Injectable } from '@nestjs/common';
import { DEFAULT_SETTINGS } from '../model/domain.record';
import { DomainView } from '../model/domain.view';
import { DomainActors } from './domain-actors.client';
import { DomainPreflight } from './domain-preflight.service';
import { DomainProjectCheck } from './domain-project.check';
import { DomainViews } from './domain-views.service';
import { definedOnly } from './dto/defined-only';
import { CreateDomainDto } from './dto/create-domain.dto';
import { HostnameClaims } from './hostname-claim.service';

/** POST /v1/domains: checks in the API, then the domain's actor creates it (and checks the hostname is free). */
@Injectable()
export class CreateDomain {
  constructor(
    private readonly actors: DomainActors,
    private readonly preflight: DomainPreflight,
    private readonly workspaces: WorkspaceRepository,
    private readonly projects: DomainProjectCheck,
    private readonly views: DomainViews,
    private readonly claims: HostnameClaims,
    @Inject(APP_CONFIG) config: AppConfig,
  ) {
    this.wildcardsPossible = config.challengeZone !== undefined;
  }

  /** Only a deployment with a challenge zone connects wildcards: elsewhere no create pays the lookup. */
  private readonly wildcardsPossible: boolean;

  async execute(
    workspaceId: string,
    dto: CreateDomainDto,
    idempotencyKey?: string,
  ): Promise<{ domain: DomainView; warnings?: PreflightWarning[] }> {
    // The checks wait on the database and DNS, not on each other: they run together, and their
    // failures are reported in the order they always were (billing, hostname, project, origin).
    const normalized = settle(() => this.preflight.hostname(dto.hostname));
    // Where DNS points now goes into the create (the domain starts from it, as after a first probe).
    const dns = normalized.status === 'fulfilled' ? this.preflight.dns(normalized.value.hostname) : undefined;
    dns?.catch(() => undefined);
    const [workspace, project, origin] = await Promise.allSettled([
      this.workspaces.paymentMethodOf(workspaceId),
      this.projects.check(workspaceId, dto.projectId),
      this.preflight.origin(dto.originUrl),
    ]);
    const paymentMethodId = valueOf(workspace);
    if (!paymentMethodId) {
      throw new DomainError(
        'billing_required',
        'Connecting a domain needs an active subscription: add a card to the workspace first',
      );
    }
    const { hostname, apex } = valueOf(normalized);
    valueOf(project);
    valueOf(origin);
    if (this.wildcardsPossible) await this.claims.underWildcard(workspaceId, hostname);
    // The CAA warning only warns: its climb overlaps the actor's round trip. A hostname the DNS
    // lookup found missing is not asked for CAA (its climb starts at the parent).
    const caa = this.preflight.caa(
      hostname,
      dns!.then((r) => r.nxdomain),
    );
    caa.catch(() => undefined);
    // The lookup rides along only if it answered by the time the command is ready (it ran beside the
    // checks): a slow one (a resolver timing out) is not waited for here, the monitor's first probe
    // sees what it would have; its warnings are awaited with CAA's, after the actor, as before.
    const observed = await Promise.race([dns!.then((r) => r.observed), graceAfterChecks()]);
    const settings = { ...DEFAULT_SETTINGS, ...definedOnly(dto), originUrl: dto.originUrl.trim() };
    // With an Idempotency-Key the id is derived from it: a retry after an answer lost in an outage
    // (the key was freed, 5xx) reaches the domain its first try made, and the actor answers it again.
    const id = idempotentId('dom', workspaceId, idempotencyKey);
    const command = { type: 'create' as const, workspaceId, hostname, apex, settings, ...(observed && { observed }) };
    // A minted id has nothing stored under it: the actor starts without reading its snapshot.
    const create = () => this.actors.send(id, command, !idempotencyKey);
    const { domain } = await create().catch((error: unknown) =>
      this.claims.afterConflict(error, workspaceId, hostname, create),
    );
    this.views.written(workspaceId, domain);
    const warnings = [...(await caa), ...(await dns!).warnings];
    return warnings.length ? { domain, warnings } : { domain };
  }
}

/** How long past the other checks a create waits for its DNS lookup before going on without it. */
const OBSERVATION_GRACE_MS = 50;

const graceAfterChecks = () =>
  new Promise<undefined>((resolve) => setTimeout(() => resolve(undefined), OBSERVATION_GRACE_MS).unref());

type Settled<T> = PromiseSettledResult<T>;

function settle<T>(work: () => T): Settled<T> {
  try {
    return { status: 'fulfilled', value: work() };
  } catch (reason) {
    return { status: 'rejected', reason };
  }
}

/** The value, or the error the step failed with. */
function valueOf<T>(result: Settled<T>): T {
  if (result.status === 'rejected') throw result.reason;
  return result.value;
}
