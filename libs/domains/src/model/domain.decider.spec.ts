import { DnsProblem } from '@app/hostname-rules';
import { initialDomainState } from './domain.machine';
import {
  decideCertificate,
  decideCheck,
  decideCreate,
  decideDelete,
  decideObserve,
  decidePatch,
  decideRegistrarDns,
  decideRelease,
} from './domain.decider';
import { DomainEnv } from './domain.effects';
import { DEFAULT_SETTINGS, DomainRecord } from './domain.record';
import { toDomainView } from './domain.view';

const NOW = new Date('2026-01-01T00:00:00Z');
const ENV: DomainEnv = {
  id: 'dom_1',
  now: NOW,
  edge: { cnameTarget: 'edge.example.net', ipv4: ['192.0.2.1'] },
  renewDays: 30,
  probePhase: 0.5,
  takeoverGuardDays: 30,
};
const RECORD: DomainRecord = {
  ...DEFAULT_SETTINGS,
  originUrl: 'https://origin.example.org',
  id: 'dom_1',
  workspaceId: 'ws_1',
  hostname: 'shop.example.com',
  apex: false,
  probePhase: 0.5,
  machine: initialDomainState(NOW),
  createdAt: NOW.toISOString(),
  updatedAt: NOW.toISOString(),
};
const CREATE = {
  type: 'create',
  workspaceId: 'ws_1',
  hostname: 'shop.example.com',
  apex: false,
  settings: { ...DEFAULT_SETTINGS, originUrl: 'https://origin.example.org' },
} as const;
const CORRECT = { type: 'observe', dns: 'correct', originBlocked: false } as const;

/** The decider's answers as data: no ports, no context, only (record, command, answers) -> outcome. */
describe('domain decider', () => {
  it('asks whether the hostname is taken before it creates', () => {
    expect(decideCreate(undefined, CREATE, ENV, {})).toEqual({
      need: { type: 'hostname_taken', hostname: 'shop.example.com', workspaceId: 'ws_1' },
    });
    const outcome = decideCreate(undefined, CREATE, ENV, { hostnameTaken: { held: false } });
    expect(outcome).toMatchObject({
      // Its retry finds the domain (createdBefore below): no command record beside it.
      decision: { state: RECORD, events: [{ type: 'domain.created' }], retryAnsweredByState: true },
      effects: [],
    });
  });

  it('starts a domain from the API’s DNS lookup: one event, and the first probe seeing the same writes nothing', () => {
    const FREE = { hostnameTaken: { held: false } } as const;
    const problem: DnsProblem = { kind: 'stray_aaaa', hostname: 'shop.example.com', aaaa: ['2001:db8::1'] };
    const observed = { dns: 'incorrect' as const, problem };
    const outcome = decideCreate(undefined, { ...CREATE, observed }, ENV, FREE);
    if (!('decision' in outcome)) throw new Error('expected a decision');
    const { state, events } = outcome.decision;
    expect(state?.machine).toMatchObject({
      status: 'pending',
      monitorStatus: 'dns_incorrect',
      lastProbeAt: NOW.toISOString(),
    });
    expect(events).toEqual([
      { type: 'domain.created', workspaceId: 'ws_1', data: { domain: toDomainView(state!, ENV.edge) } },
    ]);
    expect(outcome.effects).toEqual([]);
    const later = { ...ENV, now: new Date(NOW.getTime() + 10_000) };
    const probe = { type: 'observe' as const, dns: 'incorrect' as const, originBlocked: false, problem };
    expect(decideObserve(state!, probe, later)).toEqual({ decision: { reply: { unchanged: true } }, effects: [] });
    // Without the lookup (it failed), the domain starts unknown and the first probe writes.
    const unknown = decideCreate(undefined, CREATE, ENV, FREE);
    if (!('decision' in unknown)) throw new Error('expected a decision');
    expect(unknown.decision.state?.machine.monitorStatus).toBe('unknown');
    expect(decideObserve(unknown.decision.state!, probe, later)).toMatchObject({
      decision: { events: [{ type: 'domain.monitor_updated' }] },
    });
  });

  it('leaves the first certificate order to the first probe, also when DNS already points at the edge', () => {
    for (const hostname of ['shop.example.com', '*.example.com']) {
      const create = { ...CREATE, hostname, observed: { dns: 'correct' } } as const;
      const outcome = decideCreate(undefined, create, ENV, { hostnameTaken: { held: false } });
      expect(outcome).toMatchObject({
        decision: { state: { machine: { monitorStatus: 'pending_ssl', firstSeenCorrectDnsAt: NOW.toISOString() } } },
        effects: [],
      });
      if (!('decision' in outcome)) throw new Error('expected a decision');
      const probe = decideObserve(outcome.decision.state!, CORRECT, ENV);
      expect(probe).toMatchObject({
        decision: { reply: { unchanged: true } },
        effects: [{ type: 'order_certificate' }],
      });
    }
  });

  it('a domain bought through us on our registrar’s DNS asks its owner for nothing, until custom nameservers take the DNS away', () => {
    const registrarDns = { purchaseId: 'pur_1' };
    const created = decideCreate(undefined, { ...CREATE, registrarDns, observed: { dns: 'not_resolving' } }, ENV, {
      hostnameTaken: { held: false },
    });
    if (!('decision' in created)) throw new Error('expected a decision');
    const record = created.decision.state!;
    expect(created.decision.reply.domain).toMatchObject({
      monitorStatus: 'dns_not_resolving',
      monitorMessage: expect.stringMatching(/^We set up the DNS for you at our registrar: nothing to add/),
      registrarDns,
    });
    const moved = decideRegistrarDns(record, { type: 'registrar_dns', workspaceId: 'ws_1', registrarDns: null }, ENV);
    if (!('decision' in moved)) throw new Error('expected a decision');
    expect(moved.decision.state?.registrarDns).toBeUndefined();
    expect(moved.decision.events).toEqual([]);
    expect(moved.decision.reply.domain).toMatchObject({
      monitorMessage: 'Add the CNAME record at your registrar',
      registrarDns: null,
    });
    // Told the same again: nothing to write.
    const again = decideRegistrarDns(record, { type: 'registrar_dns', workspaceId: 'ws_1', registrarDns }, ENV);
    expect(again).toEqual({ decision: { reply: { domain: toDomainView(record, ENV.edge) } }, effects: [] });
    // A live site keeps its own line.
    const liveMachine = {
      ...record.machine,
      monitorStatus: 'active_ssl' as const,
      monitorMessage: 'Your site is live',
    };
    const live = { ...record, machine: liveMachine };
    expect(toDomainView(live, ENV.edge).monitorMessage).toBe('Your site is live');
  });

  it('answers a create for an id it holds again (a lost answer retried) without a second event', () => {
    expect(decideCreate(RECORD, CREATE, ENV, {})).toEqual({
      decision: { reply: { domain: toDomainView(RECORD, ENV.edge) } },
      effects: [],
    });
    expect(() => decideCreate(RECORD, { ...CREATE, hostname: 'other.example.com' }, ENV, {})).toThrow(
      expect.objectContaining({ code: 'idempotency_key_reused' }),
    );
    expect(() => decideCreate(RECORD, { ...CREATE, workspaceId: 'ws_2' }, ENV, {})).toThrow(
      expect.objectContaining({ code: 'conflict' }),
    );
    const deleted = { ...RECORD, machine: { ...RECORD.machine, deleted: true } };
    expect(() => decideCreate(deleted, CREATE, ENV, {})).toThrow(expect.objectContaining({ code: 'conflict' }));
  });

  it('marks a new certificate for a served read, which the next probe that reads it ends (and writes)', () => {
    const decided = <T>(outcome: T) => {
      if (!outcome || typeof outcome !== 'object' || !('decision' in outcome)) throw new Error('expected a decision');
      return (outcome as { decision: { state?: DomainRecord; events?: unknown[]; reply: unknown } }).decision;
    };
    const live = decided(decideObserve(RECORD, CORRECT, ENV)).state!;
    const certificate = {
      type: 'certificate',
      result: 'issued',
      expiresAt: '2026-03-01T00:00:00Z',
      renewAt: '2026-02-01T00:00:00Z',
    } as const;
    const issued = decided(decideCertificate(live, certificate, ENV)).state!;
    expect(issued.servedCheckPending).toBe(true);
    // A probe that did not read the edge leaves it marked and writes nothing.
    expect(decided(decideObserve(issued, CORRECT, ENV))).toEqual({ reply: { unchanged: true } });
    // Nor does one that could not reach the edge: it judged nothing, the next probe reads again.
    expect(decided(decideObserve(issued, { ...CORRECT, served: 'unreachable' }, ENV))).toEqual({
      reply: { unchanged: true },
    });
    // One that read it (valid) changes nothing else, yet is written to end the mark.
    const read = decided(decideObserve(issued, { ...CORRECT, served: 'valid' }, ENV));
    expect(read.state).toMatchObject({ machine: issued.machine, servedCheckPending: undefined });
    expect(read.events).toEqual([]);
    // A customer's check reads it too.
    const probe = { originBlocked: false, dns: 'correct', served: 'valid' } as const;
    expect(decided(decideCheck(issued, ENV, { probe })).state?.servedCheckPending).toBeUndefined();
  });

  it('asks for a probe on check, reading the served certificate only when it holds one', () => {
    expect(decideCheck(RECORD, ENV, {})).toEqual({
      need: { type: 'probe', hostname: 'shop.example.com', originUrl: RECORD.originUrl, readServedCertificate: false },
    });
    const holding = { ...RECORD, machine: { ...RECORD.machine, certificateExpiresAt: '2026-06-01T00:00:00Z' } };
    expect(decideCheck(holding, ENV, {})).toMatchObject({ need: { readServedCertificate: true } });
  });

  const ORDER = {
    type: 'order_certificate',
    id: 'dom_1',
    hostname: 'shop.example.com',
    workspaceId: RECORD.workspaceId,
    failures: 0,
  };
  it.each([
    ['correct DNS, no certificate', RECORD, [{ ...ORDER }]],
    [
      'a redirectWww domain names its twin',
      { ...RECORD, redirectWww: true },
      [{ ...ORDER, twin: 'www.shop.example.com' }],
    ],
    [
      'two failed orders, the next one due',
      { ...RECORD, certificateFailures: 2, certificateRetryAt: '2025-12-31T00:00:00Z' },
      [{ ...ORDER, failures: 2 }],
    ],
    ['a failure whose retry is not due', { ...RECORD, certificateRetryAt: '2026-01-01T00:30:00Z' }, []],
    ['a released hostname', { ...RECORD, releasedAt: '2025-12-31T00:00:00Z' }, []],
  ])('a probe with %s returns the certificate orders as effects', (_case, record, effects) => {
    const outcome = decideObserve(record, CORRECT, ENV);
    // toEqual counts an undefined `twin` as absent.
    expect('decision' in outcome && outcome.effects).toEqual(effects);
  });

  it('a release returns the failed domain and its one event; a repeated release changes nothing', () => {
    const first = decideRelease(RECORD, { type: 'release', hostname: 'shop.example.com' }, ENV);
    if (!('decision' in first)) throw new Error('expected a decision');
    expect(first.decision.events?.map((e) => e.type)).toEqual(['domain.failed']);
    const again = decideRelease(first.decision.state!, { type: 'release', hostname: 'shop.example.com' }, ENV);
    expect(again).toMatchObject({ decision: { state: first.decision.state, events: [] }, effects: [] });
  });

  it('refuses a www twin on a wildcard hostname, at create and at patch', () => {
    const wildcard = { ...CREATE, hostname: '*.example.com', settings: { ...CREATE.settings, redirectWww: true } };
    expect(() => decideCreate(undefined, wildcard, ENV, {})).toThrow(
      expect.objectContaining({ code: 'bad_request', details: { field: 'redirectWww' } }),
    );
    const record = { ...RECORD, hostname: '*.example.com' };
    const patch = { type: 'patch', workspaceId: 'ws_1', changes: { redirectWww: true } } as const;
    expect(() => decidePatch(record, patch, ENV)).toThrow(expect.objectContaining({ code: 'bad_request' }));
    expect(() => decidePatch(RECORD, patch, ENV)).not.toThrow();
  });

  describe('with a challenge zone (pre-validation)', () => {
    const ZONED: DomainEnv = { ...ENV, edge: { ...ENV.edge, challengeZone: 'acme.example.net' } };
    const WRONG = { type: 'observe', dns: 'incorrect', originBlocked: false } as const;

    it('orders a certificate while DNS is not ours when the delegation is in place, and not without it', () => {
      const delegated = decideObserve(RECORD, { ...WRONG, delegated: true }, ZONED);
      expect(delegated).toMatchObject({ effects: [{ type: 'order_certificate', hostname: 'shop.example.com' }] });
      expect(decideObserve(RECORD, WRONG, ZONED)).toMatchObject({ effects: [] });
    });

    it('asks the check to look at the delegation only while no valid certificate is held', () => {
      const need = decideCheck(RECORD, ZONED, {});
      expect(need).toMatchObject({
        need: { type: 'probe', delegation: { name: '_acme-challenge.shop.example.com' } },
      });
      const holding = {
        ...RECORD,
        machine: {
          ...RECORD.machine,
          certificateExpiresAt: '2026-03-01T00:00:00Z',
          certificateRenewAt: '2026-02-01T00:00:00Z',
        },
      };
      expect(decideCheck(holding, ZONED, {})).toEqual({
        need: { type: 'probe', hostname: 'shop.example.com', originUrl: RECORD.originUrl, readServedCertificate: true },
      });
      expect(decideCheck(RECORD, ENV, {})).not.toMatchObject({ need: { delegation: expect.anything() } });
    });
  });

  describe('the takeover guard', () => {
    const LIVE_AT_EDGE: DomainRecord = {
      ...RECORD,
      machine: { ...RECORD.machine, firstSeenCorrectDnsAt: NOW.toISOString(), consecutiveWrongDnsProbes: 0 },
    };
    const deleted = (record: DomainRecord, dns?: 'correct' | 'incorrect' | 'lookup_failed', env = ENV) => {
      const outcome = decideDelete(record, env, dns ? { dns } : {});
      if (!('decision' in outcome)) throw new Error('expected a decision');
      return outcome.decision;
    };

    it('asks where DNS points before it deletes', () => {
      expect(decideDelete(RECORD, ENV, {})).toEqual({ need: { type: 'dns', hostname: 'shop.example.com' } });
    });

    it('keeps the hostname for its workspace and tells the owner when DNS still points at the edge', () => {
      const { state, events } = deleted(RECORD, 'correct');
      const guard = { until: '2026-01-31T00:00:00.000Z', reason: 'dns_points_at_edge' };
      expect(state!.takeoverGuard).toEqual(guard);
      expect(state!.machine.deleted).toBe(true);
      expect(events).toEqual([
        expect.objectContaining({ type: 'domain.deleted', data: expect.objectContaining({ takeoverGuard: guard }) }),
      ]);
    });

    it('sets no guard when DNS points elsewhere', () => {
      const { state, events } = deleted(LIVE_AT_EDGE, 'incorrect');
      expect(state!.takeoverGuard).toBeUndefined();
      expect(events![0].data).not.toHaveProperty('takeoverGuard', expect.anything());
    });

    it('falls back on the last probe when DNS does not answer', () => {
      expect(deleted(LIVE_AT_EDGE, 'lookup_failed').state!.takeoverGuard).toMatchObject({
        reason: 'last_seen_at_edge',
      });
      expect(deleted(RECORD, 'lookup_failed').state!.takeoverGuard).toBeUndefined();
    });

    it('asks nothing when guards are off or the hostname already moved to another workspace', () => {
      expect(deleted(RECORD, undefined, { ...ENV, takeoverGuardDays: 0 }).state!.takeoverGuard).toBeUndefined();
      expect(deleted({ ...RECORD, releasedAt: NOW.toISOString() }).state!.takeoverGuard).toBeUndefined();
    });

    it('refuses another workspace a guarded hostname with the guard’s end', () => {
      const hold = { held: 'guarded' as const, until: '2026-01-31T00:00:00.000Z' };
      expect(() => decideCreate(undefined, CREATE, ENV, { hostnameTaken: hold })).toThrow(
        expect.objectContaining({
          code: 'conflict',
          details: { hostname: 'shop.example.com', guardedUntil: hold.until },
        }),
      );
    });
  });
});
