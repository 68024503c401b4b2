import { DomainError } from '@app/kernel';
import { ProbeOutcome } from '../model/domain.effects';
import { DomainCommand, DomainReply } from '../model/domain.protocol';
import { DEFAULT_SETTINGS, DomainRecord } from '../model/domain.record';
import { DomainActor } from './domain.actor';
import { DomainProbe } from './domain-probe';
import { MemoryActorContext } from '../testing/memory-actor-context';

const EDGE = { cnameTarget: 'edge.example.net', ipv4: ['192.0.2.1'] };
const T0 = new Date('2026-01-01T00:00:00Z');

class FakeProbe implements DomainProbe {
  next: ProbeOutcome = { originBlocked: false, dns: 'correct' };
  readonly calls: { hostname: string; readServedCertificate: boolean }[] = [];
  async probe(hostname: string, _origin: string, readServedCertificate: boolean): Promise<ProbeOutcome> {
    this.calls.push({ hostname, readServedCertificate });
    return this.next;
  }

  async dns(): Promise<'lookup_failed' | 'correct' | 'incorrect' | 'not_resolving'> {
    return this.next.originBlocked ? 'lookup_failed' : this.next.dns;
  }
}

function setup() {
  const taken = new Set<string>();
  const hostnameChecks: string[] = [];
  const orders: { id: string; hostname: string; twin?: string }[] = [];
  const probe = new FakeProbe();
  const actor = new DomainActor({
    hostnames: {
      hostnameTaken: async (hostname) => {
        hostnameChecks.push(hostname);
        return taken.has(hostname) ? { held: 'connected' as const } : { held: false as const };
      },
    },
    probe,
    certificates: { request: (domain) => orders.push(domain) },
    edge: EDGE,
    monitorIntervalSeconds: 60,
    renewDays: 30,
    takeoverGuardDays: 30,
  });
  const ctx = new MemoryActorContext<DomainRecord>('domain', 'dom_1', T0);
  /** Sends a command as the host does: handle, then persist the decision's state and events. */
  const send = async (command: DomainCommand): Promise<DomainReply> => {
    const decision = await actor.handle(ctx, command);
    if (decision.state) await ctx.save(decision.state, decision.events);
    decision.afterWrite?.();
    return decision.reply;
  };
  const create = (settings: Partial<DomainRecord> = {}) =>
    send({
      type: 'create',
      workspaceId: 'ws_1',
      hostname: 'shop.example.com',
      apex: false,
      settings: { ...DEFAULT_SETTINGS, originUrl: 'https://origin.example.org', ...settings },
    });
  return { actor, ctx, send, create, taken, hostnameChecks, orders, probe };
}

const codeOf = (promise: Promise<unknown>) =>
  promise.then(
    () => 'ok',
    (error: unknown) => (error instanceof DomainError ? error.code : String(error)),
  );

describe('DomainActor', () => {
  it('creates a pending domain once the hostname is free, with domain.created', async () => {
    const t = setup();
    const reply = await t.create();
    expect(reply).toMatchObject({ domain: { id: 'dom_1', status: 'pending', monitorStatus: 'unknown' } });
    expect(t.hostnameChecks).toEqual(['shop.example.com']);
    expect(t.ctx.state).toMatchObject({
      workspaceId: 'ws_1',
      hostname: 'shop.example.com',
      createdAt: T0.toISOString(),
    });
    expect(t.ctx.state!.probePhase).toBeGreaterThanOrEqual(0);
    expect(t.ctx.events.map((e) => e.type)).toEqual(['domain.created']);
  });

  it('refuses a hostname another live domain holds; answers a create of its own id again (without asking)', async () => {
    const t = setup();
    t.taken.add('shop.example.com');
    expect(await codeOf(t.create())).toBe('conflict');
    expect(t.ctx.state).toBeUndefined();
    t.taken.clear();
    const first = await t.create();
    t.ctx.events.length = 0;
    expect(await t.create()).toEqual(first);
    expect(t.ctx.events).toEqual([]);
    expect(t.hostnameChecks).toHaveLength(2);
  });

  it('answers 404 for a missing domain, another workspace, or after delete', async () => {
    const t = setup();
    expect(await codeOf(t.send({ type: 'check', workspaceId: 'ws_1' }))).toBe('not_found');
    await t.create();
    expect(await codeOf(t.send({ type: 'patch', workspaceId: 'ws_2', changes: { keepHost: true } }))).toBe('not_found');
    expect(await t.send({ type: 'delete', workspaceId: 'ws_1' })).toEqual({
      deleted: true,
      id: 'dom_1',
      hostname: 'shop.example.com',
    });
    expect(t.ctx.events.map((e) => e.type)).toEqual(['domain.created', 'domain.deleted']);
    expect(await codeOf(t.send({ type: 'observe', dns: 'correct', originBlocked: false }))).toBe('not_found');
  });

  it('orders a certificate (with the www twin) when a probe sees DNS right, and verifies once it is issued', async () => {
    const t = setup();
    await t.create({ redirectWww: true });
    t.ctx.at = new Date(T0.getTime() + 60_000);
    const seen = await t.send({ type: 'observe', dns: 'correct', originBlocked: false });
    expect(seen).toMatchObject({ domain: { status: 'pending', monitorStatus: 'pending_ssl' } });
    expect(t.orders).toEqual([
      { id: 'dom_1', hostname: 'shop.example.com', workspaceId: 'ws_1', failures: 0, twin: 'www.shop.example.com' },
    ]);
    // The same probe again moves nothing worth writing, yet the certificate is still wanted.
    expect(await t.send({ type: 'observe', dns: 'correct', originBlocked: false })).toEqual({ unchanged: true });
    expect(t.orders).toHaveLength(2);
    const issued = await t.send({ type: 'certificate', result: 'issued', expiresAt: '2026-04-01T00:00:00Z' });
    expect(issued).toMatchObject({ domain: { status: 'verified', monitorStatus: 'active_ssl' } });
    expect(t.ctx.state!.verifiedAt).toBe(t.ctx.at.toISOString());
    expect(t.ctx.events.map((e) => e.type)).toEqual(['domain.created', 'domain.monitor_updated', 'domain.verified']);
    // A valid certificate needs no new order.
    await t.send({ type: 'observe', dns: 'correct', originBlocked: false });
    expect(t.orders).toHaveLength(2);
  });

  it('after a refusal waits an hour before ordering again, unless the customer asks for a check', async () => {
    const t = setup();
    await t.create();
    const retryAt = new Date(T0.getTime() + 3_600_000).toISOString();
    await t.send({ type: 'certificate', result: 'failed', code: 'caa_forbids', message: 'CAA forbids', retryAt });
    expect(t.ctx.state!.certificateRetryAt).toBe(new Date(T0.getTime() + 3_600_000).toISOString());
    await t.send({ type: 'observe', dns: 'correct', originBlocked: false });
    expect(t.orders).toHaveLength(0);
    await t.send({ type: 'check', workspaceId: 'ws_1' });
    expect(t.probe.calls).toEqual([{ hostname: 'shop.example.com', readServedCertificate: false }]);
    expect(t.orders).toHaveLength(1);
  });

  it('after a CA rate limit waits as long as the CA said, check or not', async () => {
    const t = setup();
    await t.create();
    const retryAt = new Date(T0.getTime() + 2 * 3_600_000).toISOString();
    const reply = await t.send({ type: 'certificate', result: 'deferred', reason: 'rate limited', retryAt });
    expect(reply).toMatchObject({ domain: { certificate: { retryAt } } });
    await t.send({ type: 'check', workspaceId: 'ws_1' });
    expect(t.orders).toHaveLength(0);
    t.ctx.at = new Date(Date.parse(retryAt) + 1);
    await t.send({ type: 'check', workspaceId: 'ws_1' });
    expect(t.orders).toHaveLength(1);
  });

  it('fails a domain whose origin the check finds blocked, and a new allowed origin lifts it', async () => {
    const t = setup();
    await t.create();
    t.probe.next = { originBlocked: true };
    const blocked = await t.send({ type: 'check', workspaceId: 'ws_1' });
    expect(blocked).toMatchObject({ domain: { status: 'failed', statusReason: 'origin_blocked' } });
    const patched = await t.send({
      type: 'patch',
      workspaceId: 'ws_1',
      changes: { originUrl: 'https://other.example.org' },
    });
    expect(patched).toMatchObject({ domain: { status: 'pending', originUrl: 'https://other.example.org' } });
    expect(t.orders).toHaveLength(0);
  });

  it('lets the hostname go once on release, and orders nothing for it afterwards', async () => {
    const t = setup();
    await t.create();
    expect(await codeOf(t.send({ type: 'release', hostname: 'other.example.com' }))).toBe('not_found');
    const released = await t.send({ type: 'release', hostname: 'shop.example.com' });
    expect(released).toMatchObject({ domain: { status: 'failed', statusReason: 'moved_to_another_owner' } });
    expect(t.ctx.state!.releasedAt).toBe(T0.toISOString());
    await t.send({ type: 'release', hostname: 'shop.example.com' });
    expect(t.ctx.events.map((e) => e.type)).toEqual(['domain.created', 'domain.failed']);
    await t.send({ type: 'observe', dns: 'correct', originBlocked: false });
    expect(t.orders).toHaveLength(0);
  });
});
