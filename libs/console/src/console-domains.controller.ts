import { APP_CONFIG, AppConfig } from '@app/config';
import { DomainError, edgeSettingsOf } from '@app/kernel';
import { ConnectSessions } from '@app/connect-sessions';
import { DOMAIN_STATUSES, MONITOR_STATUSES, wildcardBase } from '@app/domain-model';
import { CreateDomainDto, DomainCommands, DomainRepository, UpdateDomainDto, toDomainView } from '@app/domains';
import { RecordChecks } from '@app/tools';
import { Body, Get, Inject, Param, Post, Query, Req } from '@nestjs/common';
import { ConsoleActor } from './access';
import { ConsoleAudit } from './console-audit.store';
import { ConsoleController } from './console-controller';
import { Actor, ConsoleRequest, FormBody, Redirect, field } from './console-request';
import { ConsoleTimeline } from './console-timeline.service';
import { ConsoleWorkspaces } from './console-workspaces.service';
import { checked, validated } from './form-validation';
import { DomainDetail, DomainFilters, deleteDomainPage, domainPage, domainsPage } from './views/domains.page';

const PAGE_SIZE = 25;
/** A connect link lasts a day: long enough for a customer to get to their DNS settings. */
const CONNECT_LINK_SECONDS = 86_400;
const NOTICES: Record<string, string> = {
  created: 'Domain connected. Give your customer the DNS records below (or a connect link).',
  checked: 'Checked now: the status below is fresh.',
  saved: 'Settings saved.',
  deleted: 'Domain deleted.',
};

const oneOf = (value: string | undefined, allowed: readonly string[]) =>
  value && allowed.includes(value) ? value : undefined;

/** Domains: list, detail, and the same commands as /v1/domains (DomainCommands). */
@ConsoleController()
export class ConsoleDomainsController {
  constructor(
    private readonly workspaces: ConsoleWorkspaces,
    private readonly domains: DomainRepository,
    private readonly commands: DomainCommands,
    private readonly sessions: ConnectSessions,
    private readonly records: RecordChecks,
    private readonly timeline: ConsoleTimeline,
    private readonly audit: ConsoleAudit,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  private get edge() {
    return edgeSettingsOf(this.config);
  }

  @Get('w/:ws/domains')
  async list(@Actor() actor: ConsoleActor, @Param('ws') ws: string, @Query() q: Record<string, string | undefined>) {
    const w = await this.workspaces.context(actor, ws);
    const filters: DomainFilters = {
      status: oneOf(q.status, DOMAIN_STATUSES),
      monitorStatus: oneOf(q.monitorStatus, MONITOR_STATUSES),
      q: q.q?.trim().toLowerCase().slice(0, 253) || undefined,
      projectId: q.projectId?.trim().slice(0, 100) || undefined,
    };
    const page = await this.domains.list(ws, {
      status: filters.status,
      monitorStatus: filters.monitorStatus,
      hostnameContains: filters.q,
      projectId: filters.projectId,
      cursor: q.cursor,
      limit: PAGE_SIZE,
    });
    return domainsPage(
      actor,
      w,
      page.records.map((r) => toDomainView(r, this.edge)),
      filters,
      page.nextCursor,
      Boolean(q.cursor),
      q.notice ? NOTICES[q.notice] : undefined,
    );
  }

  @Post('w/:ws/domains')
  async create(@Actor() actor: ConsoleActor, @Param('ws') ws: string, @Body() body: FormBody) {
    await this.workspaces.context(actor, ws, true);
    const dto = await validated(CreateDomainDto, {
      hostname: field(body, 'hostname'),
      originUrl: field(body, 'originUrl'),
    });
    const { domain } = await this.commands.create(ws, dto);
    await this.audit.record({
      workspaceId: ws,
      actor: actor.user.email,
      action: 'domain.created',
      target: domain.id,
      detail: { hostname: domain.hostname },
    });
    return new Redirect(`/console/w/${ws}/domains/${domain.id}?notice=created`);
  }

  private async detail(ws: string, id: string): Promise<DomainDetail> {
    const domain = toDomainView(await this.domains.get(ws, id), this.edge);
    // The domain's records by their full names (a trailing dot: absolute), the delegation included;
    // a wildcard's are checked from the name under its `*` label.
    const records = domain.dnsRecords.map((r) => ({ type: r.type, name: `${r.name}.`, value: r.value }));
    const check = await this.records
      .single({ hostname: wildcardBase(domain.hostname), records })
      .catch((error: unknown) => ({ error: error instanceof Error ? error.message : String(error) }));
    return {
      domain,
      check,
      timeline: await this.timeline.ofDomain(ws, id),
      issuer: domain.certificate.issuer ?? this.config.acmeIssuers.map((issuer) => issuer.name).join(', '),
    };
  }

  @Get('w/:ws/domains/:id')
  async show(
    @Actor() actor: ConsoleActor,
    @Param('ws') ws: string,
    @Param('id') id: string,
    @Query('notice') notice?: string,
  ) {
    const w = await this.workspaces.context(actor, ws);
    return domainPage(actor, w, await this.detail(ws, id), notice ? NOTICES[notice] : undefined);
  }

  @Post('w/:ws/domains/:id/check')
  async check(@Actor() actor: ConsoleActor, @Param('ws') ws: string, @Param('id') id: string) {
    await this.workspaces.context(actor, ws, true);
    await this.commands.check(ws, id);
    await this.audit.record({ workspaceId: ws, actor: actor.user.email, action: 'domain.checked', target: id });
    return new Redirect(`/console/w/${ws}/domains/${id}?notice=checked`);
  }

  @Post('w/:ws/domains/:id/settings')
  async settings(
    @Actor() actor: ConsoleActor,
    @Param('ws') ws: string,
    @Param('id') id: string,
    @Body() body: FormBody,
  ) {
    await this.workspaces.context(actor, ws, true);
    const status = Number(field(body, 'redirectStatus'));
    const dto = await validated(UpdateDomainDto, {
      originUrl: field(body, 'originUrl'),
      mode: field(body, 'mode'),
      redirectStatus: Number.isInteger(status) ? status : field(body, 'redirectStatus'),
      keepHost: checked(field(body, 'keepHost')),
      redirectWww: checked(field(body, 'redirectWww')),
    });
    const { domain } = await this.commands.update(ws, id, dto);
    await this.audit.record({
      workspaceId: ws,
      actor: actor.user.email,
      action: 'domain.updated',
      target: id,
      detail: { hostname: domain.hostname, originUrl: domain.originUrl, mode: domain.mode },
    });
    return new Redirect(`/console/w/${ws}/domains/${id}?notice=saved`);
  }

  /** The link is shown in this answer only (it carries a bearer token for the domain). */
  @Post('w/:ws/domains/:id/connect-link')
  async connectLink(
    @Actor() actor: ConsoleActor,
    @Param('ws') ws: string,
    @Param('id') id: string,
    @Req() request: ConsoleRequest,
  ) {
    const w = await this.workspaces.context(actor, ws, true);
    const domain = await this.domains.get(ws, id);
    const session = this.sessions.mint(ws, domain, CONNECT_LINK_SECONDS);
    await this.audit.record({
      workspaceId: ws,
      actor: actor.user.email,
      action: 'domain.connect_link_created',
      target: id,
    });
    const guessed = `${request.protocol}://${String(request.headers.host)}`;
    const base = this.config.publicBaseUrl ?? guessed;
    const detail = await this.detail(ws, id);
    detail.connectLink = {
      url: `${base}/connect?token=${encodeURIComponent(session.token)}`,
      expiresAt: session.expiresAt,
      ...(this.config.publicBaseUrl ? {} : { guessedBase: guessed }),
    };
    return domainPage(actor, w, detail);
  }

  @Get('w/:ws/domains/:id/delete')
  async confirmDelete(@Actor() actor: ConsoleActor, @Param('ws') ws: string, @Param('id') id: string) {
    const w = await this.workspaces.context(actor, ws, true);
    return deleteDomainPage(actor, w, toDomainView(await this.domains.get(ws, id), this.edge));
  }

  @Post('w/:ws/domains/:id/delete')
  async remove(@Actor() actor: ConsoleActor, @Param('ws') ws: string, @Param('id') id: string) {
    await this.workspaces.context(actor, ws, true);
    const domain = await this.domains.get(ws, id).catch(() => {
      throw new DomainError('not_found', 'Domain was not found (it may have been deleted already)');
    });
    await this.commands.remove(ws, id);
    await this.audit.record({
      workspaceId: ws,
      actor: actor.user.email,
      action: 'domain.deleted',
      target: id,
      detail: { hostname: domain.hostname },
    });
    return new Redirect(`/console/w/${ws}/domains?notice=deleted`);
  }
}
