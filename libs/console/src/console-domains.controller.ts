import { APP_CONFIG, AppConfig } from '@app/config';
import { DomainError, edgeSettingsOf } from '@app/kernel';
import { ConnectSessions } from '@app/connect-sessions';
import {
  CreateDomainDto,
  DOMAIN_STATUSES,
  DomainCommands,
  DomainRepository,
  MONITOR_STATUSES,
  toDomainView,
  UpdateDomainDto,
} from '@app/domains';
import { Body, Get, Inject, Param, Post, Query, Req } from '@nestjs/common';
import { ConsoleActor } from './access';
import { ConsoleController } from './console-controller';
import {
  Actor,
  ConsoleRequest,
  FormBody,
  PageWithStatus,
  Redirect,
  ShowOnce,
  ShownOnce,
  field,
} from './console-request';
import type { Flash } from './console-flashes.store';
import { formProblems, orFormProblem } from './forms/form-problems';
import { statusOf } from '@app/http';
import { ConsoleDomainPages } from './console-domain-pages.service';
import { checked, validated } from './form-validation';
import { ConnectForm, DomainFilters, deleteDomainPage, domainPage, domainsPage } from './views/domains.page';
import { ConsoleAccess, Workspace } from './console-access';
import type { WorkspaceContext } from './views/layout';
import { AuditNote, AuditNoteFn, Audited } from './console-audited';

const PAGE_SIZE = 25;
const CONNECT_FIELDS = ['hostname', 'originUrl'] as const;
const SETTINGS_FIELDS = ['originUrl', 'mode', 'redirectStatus'] as const;
/** A connect link lasts a day: long enough for a customer to get to their DNS settings. */
const CONNECT_LINK_SECONDS = 86_400;
const NOTICES: Record<string, string> = {
  created: 'Domain connected. Give your customer the DNS records below (or a connect link).',
  checked: 'Checked now: the status below is fresh.',
  saved: 'Settings saved.',
  deleted: 'Domain deleted.',
};

const settingsOf = (d: { originUrl: string; mode: string; keepHost: boolean; redirectWww: boolean }) => ({
  originUrl: d.originUrl,
  mode: d.mode,
  keepHost: d.keepHost,
  redirectWww: d.redirectWww,
});

const oneOf = (value: string | undefined, allowed: readonly string[]) =>
  value && allowed.includes(value) ? value : undefined;

/** Domains: list, detail, and the same commands as /v1/domains (DomainCommands). */
@ConsoleController()
export class ConsoleDomainsController {
  constructor(
    private readonly domains: DomainRepository,
    private readonly commands: DomainCommands,
    private readonly sessions: ConnectSessions,
    private readonly pages: ConsoleDomainPages,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  private get edge() {
    return edgeSettingsOf(this.config);
  }

  @ConsoleAccess('read')
  @Get('w/:ws/domains')
  async list(
    @Actor() actor: ConsoleActor,
    @Workspace() w: WorkspaceContext,
    @Param('ws') ws: string,
    @Query() q: Record<string, string | undefined>,
  ) {
    return this.listPage(actor, w, ws, q);
  }

  private async listPage(
    actor: ConsoleActor,
    w: WorkspaceContext,
    ws: string,
    q: Record<string, string | undefined>,
    form?: ConnectForm,
  ) {
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
      form,
    );
  }

  @Audited('domain.created')
  @ConsoleAccess('write')
  @Post('w/:ws/domains')
  async create(
    @Actor() actor: ConsoleActor,
    @AuditNote() note: AuditNoteFn,
    @Workspace() w: WorkspaceContext,
    @Param('ws') ws: string,
    @Body() body: FormBody,
  ) {
    const typed = { hostname: field(body, 'hostname') ?? '', originUrl: field(body, 'originUrl') ?? '' };
    const created = await orFormProblem(validated(CreateDomainDto, typed).then((dto) => this.commands.create(ws, dto)));
    if (created instanceof DomainError) {
      // A refusal the person can fix is the form again, under its field, with what they typed.
      const existing = created.code === 'conflict' ? await this.pages.heldHere(ws, created, typed.hostname) : undefined;
      const form = { ...typed, problems: formProblems(created, CONNECT_FIELDS), existing };
      return new PageWithStatus(statusOf(created.code), await this.listPage(actor, w, ws, {}, form));
    }
    const { domain } = created;
    note({ target: domain.id, detail: { hostname: domain.hostname } });
    return new Redirect(`/console/w/${ws}/domains/${domain.id}?notice=created`);
  }

  @ConsoleAccess('read')
  @Get('w/:ws/domains/:id')
  async show(
    @Actor() actor: ConsoleActor,
    @Workspace() w: WorkspaceContext,
    @Param('ws') ws: string,
    @Param('id') id: string,
    @Query('notice') notice?: string,
    @ShownOnce() flash?: Flash,
  ) {
    const detail = await this.pages.detail(ws, id);
    if (flash?.kind === 'connect_link' && flash.domainId === id) detail.connectLink = flash.link;
    return domainPage(actor, w, detail, notice ? NOTICES[notice] : undefined);
  }

  @Audited('domain.checked')
  @ConsoleAccess('write')
  @Post('w/:ws/domains/:id/check')
  async check(@Actor() actor: ConsoleActor, @Param('ws') ws: string, @Param('id') id: string) {
    await this.commands.check(ws, id);
    return new Redirect(`/console/w/${ws}/domains/${id}?notice=checked`);
  }

  @Audited('domain.updated')
  @ConsoleAccess('write')
  @Post('w/:ws/domains/:id/settings')
  async settings(
    @Actor() actor: ConsoleActor,
    @AuditNote() note: AuditNoteFn,
    @Workspace() w: WorkspaceContext,
    @Param('ws') ws: string,
    @Param('id') id: string,
    @Body() body: FormBody,
  ) {
    const status = Number(field(body, 'redirectStatus'));
    const typed = {
      originUrl: field(body, 'originUrl') ?? '',
      mode: field(body, 'mode') ?? '',
      redirectStatus: Number.isInteger(status) ? status : (field(body, 'redirectStatus') ?? ''),
      keepHost: checked(field(body, 'keepHost')),
      redirectWww: checked(field(body, 'redirectWww')),
    };
    const before = settingsOf(toDomainView(await this.domains.get(ws, id), this.edge));
    // A refused origin (blocked by the SSRF rules, malformed) is the settings form again, as typed.
    const updated = await orFormProblem(
      validated(UpdateDomainDto, typed).then((dto) => this.commands.update(ws, id, dto)),
    );
    if (updated instanceof DomainError) {
      const detail = await this.pages.detail(ws, id);
      detail.settingsForm = { values: typed, problems: formProblems(updated, SETTINGS_FIELDS) };
      return new PageWithStatus(statusOf(updated.code), domainPage(actor, w, detail));
    }
    const { domain } = updated;
    // Before and after, so the log reads as what changed.
    note({ detail: { hostname: domain.hostname, before, after: settingsOf(domain) } });
    return new Redirect(`/console/w/${ws}/domains/${id}?notice=saved`);
  }

  /**
   * The link carries a bearer token for the domain: post, redirect, show once (a one-time flash),
   * so a reload mints no second link and never puts the token in a URL the browser keeps.
   */
  @Audited('domain.connect_link_created')
  @ConsoleAccess('write')
  @Post('w/:ws/domains/:id/connect-link')
  async connectLink(@Param('ws') ws: string, @Param('id') id: string, @Req() request: ConsoleRequest) {
    const domain = await this.domains.get(ws, id);
    const session = this.sessions.mint(ws, domain, CONNECT_LINK_SECONDS);
    const guessed = `${request.protocol}://${String(request.headers.host)}`;
    const base = this.config.publicBaseUrl ?? guessed;
    const link = {
      url: `${base}/connect?token=${encodeURIComponent(session.token)}`,
      expiresAt: session.expiresAt,
      ...(this.config.publicBaseUrl ? {} : { guessedBase: guessed }),
    };
    return new ShowOnce(
      { kind: 'connect_link', workspaceId: ws, domainId: id, link },
      `/console/w/${ws}/domains/${id}`,
    );
  }

  @ConsoleAccess('write')
  @Get('w/:ws/domains/:id/delete')
  async confirmDelete(
    @Actor() actor: ConsoleActor,
    @Workspace() w: WorkspaceContext,
    @Param('ws') ws: string,
    @Param('id') id: string,
  ) {
    return deleteDomainPage(actor, w, toDomainView(await this.domains.get(ws, id), this.edge));
  }

  @Audited('domain.deleted')
  @ConsoleAccess('write')
  @Post('w/:ws/domains/:id/delete')
  async remove(
    @Actor() actor: ConsoleActor,
    @AuditNote() note: AuditNoteFn,
    @Param('ws') ws: string,
    @Param('id') id: string,
  ) {
    // Only the repository's own not_found is "not found": a database outage stays an outage (500).
    const domain = await this.domains.get(ws, id);
    await this.commands.remove(ws, id);
    note({ detail: { hostname: domain.hostname } });
    return new Redirect(`/console/w/${ws}/domains?notice=deleted`);
  }
}
