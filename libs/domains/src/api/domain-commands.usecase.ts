import { ActorClient } from '@app/actors';
import { Bus } from '@app/bus';
import { publishEdgeInvalidation } from '@app/edge';
import { PreflightWarning } from '@app/domain-model';
import { DomainError } from '@app/http';
import { newId } from '@app/persistence';
import { ProjectRepository } from '@app/projects';
import { WorkspaceRepository } from '@app/workspaces';
import { Injectable } from '@nestjs/common';
import { DOMAIN_KIND, DomainCommand, DomainReply } from '../model/domain.protocol';
import { DEFAULT_SETTINGS } from '../model/domain.record';
import { DomainView } from '../model/domain.view';
import { DomainPreflight } from './domain-preflight.service';
import { DomainViews } from './domain-views.service';
import { HostnameClaims } from './hostname-claim.service';
import { CreateDomainDto } from './dto/create-domain.dto';
import { UpdateDomainDto } from './dto/update-domain.dto';

/** Everything that changes a domain: checks in the API, then one command to the domain's actor. */
@Injectable()
export class DomainCommands {
  constructor(
    private readonly actors: ActorClient,
    private readonly preflight: DomainPreflight,
    private readonly workspaces: WorkspaceRepository,
    private readonly bus: Bus,
    private readonly projects: ProjectRepository,
    private readonly views: DomainViews,
    private readonly claims: HostnameClaims,
  ) {}

  async create(
    workspaceId: string,
    dto: CreateDomainDto,
  ): Promise<{ domain: DomainView; warnings?: PreflightWarning[] }> {
    // The checks wait on the database and DNS, not on each other: they run together, and their
    // failures are reported in the order they always were (billing, hostname, project, origin).
    const normalized = settle(() => this.preflight.hostname(dto.hostname));
    const [workspace, project, origin] = await Promise.allSettled([
      this.workspaces.paymentMethodOf(workspaceId),
      this.checkProject(workspaceId, dto.projectId),
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
    // The DNS warnings only warn: CAA and the DNS diagnostics overlap the actor's round trip.
    const warningChecks = Promise.all([this.preflight.caa(hostname), this.preflight.dns(hostname)]);
    warningChecks.catch(() => undefined);
    const settings = { ...DEFAULT_SETTINGS, ...definedOnly(dto), originUrl: dto.originUrl.trim() };
    const create = () => this.send(newId('dom'), { type: 'create', workspaceId, hostname, apex, settings });
    const reply = await create().catch((error: unknown) =>
      this.claims.afterConflict(error, workspaceId, hostname, create),
    );
    const domain = domainOf(reply);
    this.views.written(workspaceId, domain);
    const warnings = (await warningChecks).flat();
    return warnings.length ? { domain, warnings } : { domain };
  }

  async update(workspaceId: string, id: string, dto: UpdateDomainDto): Promise<{ domain: DomainView }> {
    const changes = definedOnly(dto);
    if (!Object.keys(changes).length) {
      throw new DomainError(
        'bad_request',
        'Send at least one of originUrl, metadata, mode, keepHost, redirectWww, redirectStatus, projectId',
      );
    }
    await this.checkProject(workspaceId, changes.projectId);
    if (changes.originUrl !== undefined) {
      changes.originUrl = changes.originUrl.trim();
      await this.preflight.origin(changes.originUrl);
    }
    const domain = domainOf(await this.send(id, { type: 'patch', workspaceId, changes }));
    this.views.written(workspaceId, domain);
    publishEdgeInvalidation(this.bus, domain.hostname);
    return { domain };
  }

  async remove(workspaceId: string, id: string): Promise<DomainReply> {
    const reply = await this.send(id, { type: 'delete', workspaceId });
    this.views.removed(workspaceId, id, 'hostname' in reply ? reply.hostname : undefined);
    if ('hostname' in reply) publishEdgeInvalidation(this.bus, reply.hostname);
    return reply;
  }

  /** The probe now; every edge then re-reads the name, since the status it routes by may have moved. */
  async check(workspaceId: string, id: string): Promise<{ domain: DomainView }> {
    const domain = domainOf(await this.send(id, { type: 'check', workspaceId }));
    this.views.written(workspaceId, domain);
    publishEdgeInvalidation(this.bus, domain.hostname);
    return { domain };
  }

  /** A domain may name only a project of its own workspace: anything else is a bad request (400), not a 404. */
  private async checkProject(workspaceId: string, projectId: string | null | undefined): Promise<void> {
    if (typeof projectId !== 'string' || (await this.projects.exists(workspaceId, projectId))) return;
    throw new DomainError('bad_request', `projectId: no project ${projectId} in this workspace`, {
      field: 'projectId',
    });
  }

  private send(id: string, command: DomainCommand): Promise<DomainReply> {
    if (!/^dom_[0-9A-Za-z]{1,64}$/.test(id)) throw new DomainError('not_found', 'Domain was not found');
    return this.actors.ask<DomainReply>(DOMAIN_KIND, id, command, { attemptTimeoutMs: 15_000 });
  }
}

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

function definedOnly<T extends object>(dto: T): Partial<T> {
  return Object.fromEntries(Object.entries(dto).filter(([, value]) => value !== undefined)) as Partial<T>;
}

function domainOf(reply: DomainReply): DomainView {
  if ('domain' in reply) return reply.domain;
  throw new Error('The domain actor answered without a domain');
}
