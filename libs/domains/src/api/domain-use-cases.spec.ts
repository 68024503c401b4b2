import type { AppConfig } from '@app/config';
import { PreflightWarning } from '@app/hostname-rules';
import { DomainError, EDGE_INVALIDATE_SUBJECT } from '@app/kernel';
import { ProjectRepository } from '@app/projects';
import { WorkspaceRepository } from '@app/workspaces';
import { ProbeOutcome } from '../model/domain.effects';
import { DomainView } from '../model/domain.view';
import { InMemoryDomainActors } from '../testing/in-memory-domain-actors';
import { CheckDomain } from './check-domain.usecase';
import { CreateDomain } from './create-domain.usecase';
import { DeleteDomain } from './delete-domain.usecase';
import { DomainActors } from './domain-actors.client';
import { DomainPreflight } from './domain-preflight.service';
import { DomainProjectCheck } from './domain-project.check';
import { DomainViews } from './domain-views.service';
import { HostnameClaims } from './hostname-claim.service';
import { UpdateDomain } from './update-domain.usecase';

/** A collaborator with only the members a spec needs: the rest would throw if called. */
const WARNING: PreflightWarning = { code: 'dns_stray_aaaa', message: 'Remove the AAAA record', caaRecords: [] };

const fake = <T>(members: Partial<T>): T => members as T;

function setup() {
  const probed: ProbeOutcome = { originBlocked: false, dns: 'not_resolving' };
  const actors = new InMemoryDomainActors(
    {
      hostnames: { hostnameTaken: async () => ({ held: false }) },
      probe: { probe: async () => probed, dns: async () => probed.dns },
      edge: { cnameTarget: 'edge.example.net', ipv4: ['192.0.2.1'] },
      monitorIntervalSeconds: 60,
      renewDays: 30,
      takeoverGuardDays: 30,
    },
    new Date('2026-01-01T00:00:00Z'),
  );
  const invalidated: string[] = [];
  actors.bus.subscribe(EDGE_INVALIDATE_SUBJECT, (payload) => {
    invalidated.push((payload as { hostname: string }).hostname);
  });
  const origins: string[] = [];
  const cards = new Map([['ws_1', 'pm_1']]);
  const written: DomainView[] = [];
  const removed: string[] = [];
  const preflight = fake<DomainPreflight>({
    hostname: (input: string) => ({ hostname: input.toLowerCase(), apex: false, registrableDomain: 'example.com' }),
    origin: async (url: string) => {
      origins.push(url);
      if (url.includes('10.0.0.1'))
        throw new DomainError('preflight_failed', 'The origin is private', { reason: 'ssrf_blocked' });
    },
    caa: async () => [],
    dns: async () => ({ observed: { dns: 'not_resolving' }, warnings: [WARNING] }),
  });
  const workspaces = fake<WorkspaceRepository>({ paymentMethodOf: async (id: string) => cards.get(id) ?? null });
  const projects = new DomainProjectCheck(fake<ProjectRepository>({ exists: async (_ws, id) => id === 'prj_1' }));
  const views = fake<DomainViews>({
    written: (_ws: string, view: DomainView) => void written.push(view),
    removed: (_ws: string, id: string) => void removed.push(id),
  });
  const claims = fake<HostnameClaims>({
    afterConflict: async (error: unknown) => {
      throw error;
    },
  });
  const client = new DomainActors(actors.client);
  return {
    actors,
    invalidated,
    origins,
    written,
    removed,
    create: new CreateDomain(client, preflight, workspaces, projects, views, claims, {} as AppConfig),
    update: new UpdateDomain(client, preflight, projects, views, actors.bus),
    remove: new DeleteDomain(client, views, actors.bus),
    check: new CheckDomain(client, views, actors.bus),
  };
}

const codeOf = (promise: Promise<unknown>) =>
  promise.then(
    () => 'ok',
    (error: unknown) => (error instanceof DomainError ? error.code : String(error)),
  );
const settled = () => new Promise((resolve) => setImmediate(resolve));
const ORIGIN = { originUrl: ' https://origin.example.org ' };

describe('domain use cases', () => {
  it('create: sends one create with the defaults and the trimmed origin, and returns the DNS warnings', async () => {
    const t = setup();
    const { domain, warnings } = await t.create.execute('ws_1', { hostname: 'Shop.Example.com', ...ORIGIN });
    expect(domain).toMatchObject({
      hostname: 'shop.example.com',
      originUrl: 'https://origin.example.org',
      mode: 'proxy',
    });
    expect(warnings).toEqual([WARNING]);
    // It starts from the preflight's DNS lookup, as after a first probe.
    expect(domain).toMatchObject({ monitorStatus: 'dns_not_resolving' });
    expect(t.actors.contexts.get(domain.id)?.events.map((e) => e.type)).toEqual(['domain.created']);
    expect(t.written).toEqual([domain]);
  });

  it('create: a workspace without a card is 402 before anything reaches an actor', async () => {
    const t = setup();
    expect(await codeOf(t.create.execute('ws_2', { hostname: 'shop.example.com', ...ORIGIN }))).toBe(
      'billing_required',
    );
    expect(t.actors.contexts.size).toBe(0);
  });

  it('create: a project of another workspace is a bad request', async () => {
    const t = setup();
    const dto = { hostname: 'shop.example.com', ...ORIGIN, projectId: 'prj_2' };
    expect(await codeOf(t.create.execute('ws_1', dto))).toBe('bad_request');
  });

  it('update: needs a field, preflights a new origin, and makes every edge re-read the name', async () => {
    const t = setup();
    const { domain } = await t.create.execute('ws_1', { hostname: 'shop.example.com', ...ORIGIN });
    expect(await codeOf(t.update.execute('ws_1', domain.id, {}))).toBe('bad_request');
    expect(await codeOf(t.update.execute('ws_1', domain.id, { originUrl: 'https://10.0.0.1' }))).toBe(
      'preflight_failed',
    );
    const updated = await t.update.execute('ws_1', domain.id, {
      originUrl: ' https://new.example.org',
      keepHost: true,
    });
    expect(updated.domain).toMatchObject({ originUrl: 'https://new.example.org', keepHost: true });
    expect(t.origins).toContain('https://new.example.org');
    await settled();
    expect(t.invalidated).toEqual(['shop.example.com']);
  });

  it('update, check and delete answer 404 for an id that cannot be a domain, without asking an actor', async () => {
    const t = setup();
    expect(await codeOf(t.update.execute('ws_1', 'pur_1', { keepHost: true }))).toBe('not_found');
    expect(await codeOf(t.check.execute('ws_1', 'dom_?'))).toBe('not_found');
    expect(await codeOf(t.remove.execute('ws_1', 'x'))).toBe('not_found');
    expect(t.actors.contexts.size).toBe(0);
  });

  it('check: probes now and returns what the probe saw', async () => {
    const t = setup();
    const { domain } = await t.create.execute('ws_1', { hostname: 'shop.example.com', ...ORIGIN });
    const checked = await t.check.execute('ws_1', domain.id);
    expect(checked.domain).toMatchObject({ monitorStatus: 'dns_not_resolving' });
    expect(checked.domain.lastCheckedAt).not.toBeNull();
    await settled();
    expect(t.invalidated).toEqual(['shop.example.com']);
  });

  it('delete: answers the deleted domain, forgets its view, and a second delete is 404', async () => {
    const t = setup();
    const { domain } = await t.create.execute('ws_1', { hostname: 'shop.example.com', ...ORIGIN });
    expect(await t.remove.execute('ws_1', domain.id)).toEqual({
      deleted: true,
      id: domain.id,
      hostname: 'shop.example.com',
    });
    expect(t.removed).toEqual([domain.id]);
    expect(await codeOf(t.remove.execute('ws_1', domain.id))).toBe('not_found');
    expect(await codeOf(t.remove.execute('ws_2', domain.id))).toBe('not_found');
  });
});
