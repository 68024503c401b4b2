import { ProbeOutcome } from '../model/domain.effects';
import { DomainCommand } from '../model/domain.protocol';
import { DEFAULT_SETTINGS, DomainRecord } from '../model/domain.record';
import { MemoryActorContext } from '../testing/memory-actor-context';
import { CheckRestartsBackoff } from './check-restarts-backoff';
import { DomainActor } from './domain.actor';

const T0 = new Date('2026-01-01T00:00:00Z');

function setup() {
  const probe = { next: { originBlocked: false, dns: 'incorrect' } as ProbeOutcome };
  const actor = new DomainActor({
    hostnames: { hostnameTaken: async () => ({ held: false }) },
    probe: { probe: async () => probe.next, dns: async () => 'incorrect' },
    edge: { cnameTarget: 'edge.example.net', ipv4: ['192.0.2.1'] },
    monitorIntervalSeconds: 300,
    renewDays: 30,
    takeoverGuardDays: 30,
  });
  const restarted: string[] = [];
  const kind = new CheckRestartsBackoff(actor, async (id) => {
    restarted.push(id);
  });
  const ctx = new MemoryActorContext<DomainRecord>('domain', 'dom_1', T0);
  const send = (command: DomainCommand) => ctx.commit(() => kind.handle(ctx, command));
  return { kind, actor, ctx, send, restarted, probe };
}

const create: DomainCommand = {
  type: 'create',
  workspaceId: 'ws_1',
  hostname: 'shop.example.com',
  apex: false,
  settings: { ...DEFAULT_SETTINGS, originUrl: 'https://origin.example.org' },
};
const check: DomainCommand = { type: 'check', workspaceId: 'ws_1' };

describe('CheckRestartsBackoff', () => {
  it('is the domain actor to the host: same kind, same store, same replies', async () => {
    const t = setup();
    expect(t.kind.kind).toBe(t.actor.kind);
    expect(t.kind.store).toBe(t.actor.store);
    expect(await t.send(create)).toMatchObject({ ok: true, reply: { domain: { status: 'pending' } } });
    expect(await t.send(check)).toMatchObject({
      ok: true,
      reply: { domain: { status: 'pending', monitorStatus: 'dns_incorrect' } },
    });
  });

  it('restarts the back-off on a check of a pending domain, not on other commands', async () => {
    const t = setup();
    await t.send(create);
    await t.send({ type: 'observe', dns: 'incorrect', originBlocked: false });
    await t.send({ type: 'patch', workspaceId: 'ws_1', changes: { keepHost: true } });
    expect(t.restarted).toEqual([]);
    await t.send(check);
    t.probe.next = { originBlocked: false, dns: 'correct' };
    await t.send(check);
    expect(t.restarted).toEqual(['dom_1', 'dom_1']);
  });

  it('leaves a verified domain on its phase slot, and a refused check restarts nothing', async () => {
    const t = setup();
    expect(await t.send(check)).toMatchObject({ ok: false, error: { code: 'not_found' } });
    await t.send(create);
    t.probe.next = { originBlocked: false, dns: 'correct' };
    await t.send({ type: 'observe', dns: 'correct', originBlocked: false });
    await t.send({ type: 'certificate', result: 'issued', expiresAt: '2026-04-01T00:00:00Z' });
    expect(await t.send(check)).toMatchObject({ ok: true, reply: { domain: { status: 'verified' } } });
    expect(await t.send({ type: 'check', workspaceId: 'ws_2' })).toMatchObject({ ok: false });
    expect(t.restarted).toEqual([]);
  });
});
