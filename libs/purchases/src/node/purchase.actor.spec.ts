import { OutboxEvent } from '@app/actors';
import { DomainError } from '@app/kernel';
import { Charge, ChargeRequest, Payments, RefundRefusedError, RefundRequest } from '@app/payments';
import type { SqlExecutor } from '@app/persistence';
import {
  DomainAvailability,
  RegisterRequest,
  Registrar,
  RegistrarDnsRecord,
  RegistrarRefusedError,
  RegistrarUnavailableError,
  Registration,
  WholesalePrice,
} from '@app/registrar';
import { noSagaStepListener } from '../saga-step-listener';
import { MAX_REGISTER_ATTEMPTS } from '../model/purchase.saga';
import { PurchaseActor } from './purchase.actor';
import { Ctx } from './purchase-checkpoint';
import { PurchaseCommand, PurchaseOrder } from '../model/purchase.protocol';
import { PurchaseRecord } from '../model/purchase.record';

/** The registrar (outside world) in memory, with switches for outages. */
class MemoryRegistrar extends Registrar {
  readonly name = 'memory';
  readonly defaultNameservers = ['ns1.memory.example', 'ns2.memory.example'];
  down = false;
  registerCalls = 0;
  renewCalls = 0;
  readonly held = new Map<string, Registration>();
  private gate() {
    if (this.down) throw new RegistrarUnavailableError('connect ECONNREFUSED');
  }
  async check(hostname: string): Promise<DomainAvailability> {
    return { hostname, available: !this.held.has(hostname), whoisPrivacySupported: true };
  }
  async registrationPrice(): Promise<WholesalePrice> {
    return { wholesaleCents: 1000, currency: 'USD' };
  }
  async renewalPrice(): Promise<WholesalePrice> {
    return { wholesaleCents: 1500, currency: 'USD' };
  }
  async register(request: RegisterRequest): Promise<Registration> {
    this.gate();
    this.registerCalls++;
    if (this.held.has(request.hostname)) throw new RegistrarRefusedError('already registered');
    const registration = { registrarDomainId: `r-${request.hostname}`, expiresAt: new Date('2027-06-01T00:00:00Z') };
    this.held.set(request.hostname, registration);
    return registration;
  }
  async findRegistration(hostname: string) {
    this.gate();
    return this.held.get(hostname);
  }
  async renew(hostname: string, years: number): Promise<Registration> {
    this.gate();
    this.renewCalls++;
    const current = this.held.get(hostname)!;
    const expiresAt = new Date(current.expiresAt);
    expiresAt.setUTCFullYear(expiresAt.getUTCFullYear() + years);
    const renewed = { ...current, expiresAt };
    this.held.set(hostname, renewed);
    return renewed;
  }
  async liveDetails() {
    return {};
  }
  async getDnsRecords(): Promise<RegistrarDnsRecord[]> {
    return [];
  }
  async setDnsRecords() {}
  async setNameservers() {}
}

/** Payments (outside world) in memory: idempotent by key, like Stripe. */
class MemoryPayments extends Payments {
  readonly name = 'memory';
  down = false;
  readonly charges = new Map<string, Charge>();
  readonly refunds = new Map<string, string>();
  async card(paymentMethod: string) {
    return { paymentMethod, brand: 'visa', last4: '4242', expMonth: 12, expYear: 2030 };
  }
  async charge(request: ChargeRequest): Promise<Charge> {
    if (this.down) throw new Error('socket hang up');
    const charge = this.charges.get(request.idempotencyKey) ?? {
      chargeId: `pi_${this.charges.size + 1}`,
      amountCents: request.amountCents,
    };
    this.charges.set(request.idempotencyKey, charge);
    return charge;
  }
  async refund(request: RefundRequest) {
    if (this.down) throw new Error('socket hang up');
    if ([...this.refunds.values()].includes(request.chargeId) && !this.refunds.has(request.idempotencyKey))
      throw new RefundRefusedError('charge_already_refunded', 'already refunded');
    this.refunds.set(request.idempotencyKey, request.chargeId);
    return { refundId: `re_${request.chargeId}` };
  }
}

const db: SqlExecutor = {
  query: async <T>(sql: string) => (/from workspaces/.test(sql) ? [{ pm: 'pm_card_visa' }] : []) as T[],
  bound: () => Promise.reject(new Error('not used')),
  transaction: () => Promise.reject(new Error('not used')),
  prepared: () => Promise.reject(new Error('not used')),
};
const unused = new Proxy({}, { get: () => () => Promise.reject(new Error('not used without autoConnect')) });

const ORDER: PurchaseOrder = {
  hostname: 'memory-test.com',
  years: 1,
  registrant: {
    firstName: 'A',
    lastName: 'B',
    email: 'a@b.example',
    phone: '+1.5555555555',
    address1: '1 Main St',
    city: 'X',
    stateOrProvince: 'Y',
    postalCode: '1',
    country: 'US',
  },
  whoisPrivacy: true,
  autoRenew: false,
};

/** What PostgreSQL raises for a value it can never store (a NUL bound as text). */
const unstorable = () => Object.assign(new Error('invalid byte sequence for encoding "UTF8": 0x00'), { code: '22021' });

/**
 * `refuseSave`: the database refuses these states for good (as a trigger or a narrower column would);
 * `snapshot`: the state a new actor starts from (as on the node a shard moved to).
 */
function setup(refuseSave: (next: PurchaseRecord) => boolean = () => false, snapshot?: PurchaseRecord) {
  const registrar = new MemoryRegistrar();
  const payments = new MemoryPayments();
  const actor = new PurchaseActor({
    db,
    registrar,
    payments,
    actors: unused as never,
    preflight: unused as never,
    bus: unused as never,
    edge: { cnameTarget: 'edge.example', ipv4: ['192.0.2.1'] },
    fees: { percent: 15, minCents: 200 },
    steps: noSagaStepListener,
  });
  let state: PurchaseRecord | undefined = snapshot;
  const events: OutboxEvent[] = [];
  const ctx: Ctx = {
    kind: 'purchase',
    id: 'pur_test',
    shard: 1,
    owner: 'n1',
    epoch: 1,
    get state() {
      return state;
    },
    now: () => new Date('2026-06-01T00:00:00Z'),
    save: async (next, evts = []) => {
      if (refuseSave(next)) throw unstorable();
      state = next;
      events.push(...evts);
    },
  };
  const send = async (command: PurchaseCommand) => {
    const decision = await actor.handle(ctx, command);
    if (decision.state) state = decision.state;
    return decision.reply;
  };
  const create = () => send({ type: 'create', workspaceId: 'ws_1', order: ORDER });
  return { registrar, payments, send, create, events, state: () => state! };
}

const codeOf = (promise: Promise<unknown>) =>
  promise.then(
    () => 'ok',
    (error: unknown) => (error instanceof DomainError ? error.code : `thrown: ${String(error)}`),
  );

const messageOf = (promise: Promise<unknown>) =>
  promise.then(
    () => 'ok',
    (error: unknown) => (error instanceof Error ? error.message : String(error)),
  );

describe('PurchaseActor with providers that fail', () => {
  it('a payments outage leaves the purchase pending (503); a later resume charges once and completes', async () => {
    const t = setup();
    t.payments.down = true;
    expect(await codeOf(t.create())).toBe('service_unavailable');
    expect(t.state().saga).toMatchObject({ status: 'pending', step: 'charging' });
    expect(t.payments.charges.size).toBe(0);
    t.payments.down = false;
    await t.send({ type: 'resume' });
    expect(t.state().saga.status).toBe('completed');
    expect([...t.payments.charges.keys()]).toEqual(['purchase:pur_test:charge']);
    expect(t.events.map((e) => e.type)).toEqual(['domain_purchase.completed']);
    // The caller's retry of the same create answers from the state: no second charge.
    expect(await codeOf(t.create())).toBe('ok');
    expect(t.payments.charges.size).toBe(1);
  });

  it('keeps why a step waits in the snapshot: the node a shard moves to answers with the same reason', async () => {
    const first = setup();
    first.payments.down = true;
    const answer = await messageOf(first.create());
    expect(answer).toMatch(/^The purchase is pending \(charging\): socket hang up;/);
    // The shard moves: a new actor on another node starts from the persisted snapshot alone.
    const snapshot = JSON.parse(JSON.stringify(first.state())) as PurchaseRecord;
    expect(snapshot.saga).toMatchObject({ step: 'charging', outage: 'socket hang up' });
    const moved = setup(undefined, snapshot);
    moved.payments.down = true;
    expect(await messageOf(moved.create())).toBe(answer);
    // The step that goes on clears it: a completed purchase waits for nothing.
    moved.payments.down = false;
    await moved.send({ type: 'resume' });
    expect(moved.state().saga.status).toBe('completed');
    expect(moved.state().saga.outage).toBeUndefined();
  });

  it('registrar outages are retried, then the charge is refunded', async () => {
    const t = setup();
    t.registrar.down = true;
    expect(await codeOf(t.create())).toBe('service_unavailable');
    for (let i = 1; i < MAX_REGISTER_ATTEMPTS - 1; i++) await codeOf(t.send({ type: 'resume' }));
    expect(t.state().saga).toMatchObject({ step: 'registering', registerAttempts: MAX_REGISTER_ATTEMPTS - 1 });
    await t.send({ type: 'resume' });
    expect(t.state().saga).toMatchObject({ status: 'refunded', failure: { stage: 'register' } });
    expect(t.payments.refunds.get('purchase:pur_test:refund')).toBe('pi_1');
    expect(t.events.map((e) => e.type)).toEqual(['domain_purchase.failed']);
  });

  it('a registration that happened before a crash is found, not repeated', async () => {
    const t = setup();
    t.payments.down = true;
    await codeOf(t.create());
    t.payments.down = false;
    // The registrar already holds the name for us (the node died after it said yes).
    t.registrar.held.set(ORDER.hostname, { registrarDomainId: 'r-1', expiresAt: new Date('2027-06-01T00:00:00Z') });
    await t.send({ type: 'resume' });
    expect(t.state().saga).toMatchObject({ status: 'completed', registrarDomainId: 'r-1' });
    expect(t.registrar.registerCalls).toBe(0);
  });

  it('a refund the provider already made counts as refunded', async () => {
    const t = setup();
    t.registrar.held.set(ORDER.hostname, { registrarDomainId: 'x', expiresAt: new Date() });
    t.registrar.check = async (hostname) => ({ hostname, available: true, whoisPrivacySupported: true });
    t.registrar.findRegistration = async () => undefined;
    // Someone refunded the charge by hand with another key before our refund ran.
    const refund = t.payments.refund.bind(t.payments);
    t.payments.refund = async (request) =>
      refund({ ...request, idempotencyKey: 'by-hand' }).then(() => refund(request));
    expect(await codeOf(t.create())).toBe('registration_failed');
    expect(t.state().saga.status).toBe('refunded');
  });

  it('a renewal the registrar made before a crash is not made again', async () => {
    const t = setup();
    await t.create();
    t.registrar.down = true;
    expect(await codeOf(t.send({ type: 'renew', workspaceId: 'ws_1', years: 1 }))).toBe('service_unavailable');
    expect(t.state().renewals[0].step).toBe('renewing');
    // The registrar renewed, then the node died before saving it.
    t.registrar.down = false;
    await t.registrar.renew(ORDER.hostname, 1);
    t.registrar.renewCalls = 0;
    await t.send({ type: 'resume' });
    expect(t.state().renewals[0]).toMatchObject({ step: 'renewed', expiresAt: '2028-06-01T00:00:00.000Z' });
    expect(t.registrar.renewCalls).toBe(0);
    expect([...t.payments.charges.keys()]).toEqual(['purchase:pur_test:charge', 'purchase:pur_test:renew:1']);
  });

  it('a charge whose outcome the database refuses for good is refunded at once, never retried', async () => {
    const t = setup((next) => next.saga.step === 'registering');
    expect(await codeOf(t.create())).toBe('bad_request');
    expect(t.state().saga).toMatchObject({
      status: 'refunded',
      chargeId: 'pi_1',
      failure: { code: 'bad_request', stage: 'charge', reason: expect.stringMatching(/SQLSTATE 22021/) },
    });
    expect(t.payments.refunds.get('purchase:pur_test:refund')).toBe('pi_1');
    expect(t.events.map((e) => e.type)).toEqual(['domain_purchase.failed']);
    // A resume (the sweeper) finds it finished: no second charge, no second refund.
    await t.send({ type: 'resume' });
    expect([t.payments.charges.size, t.payments.refunds.size, t.registrar.registerCalls]).toEqual([1, 1, 0]);
  });

  it('a step the database refuses for good (the registrar answered a value it cannot store) refunds', async () => {
    const t = setup();
    t.registrar.register = () => Promise.reject(unstorable());
    expect(await codeOf(t.create())).toBe('bad_request');
    expect(t.state().saga).toMatchObject({ status: 'refunded', failure: { code: 'bad_request', stage: 'register' } });
    expect(t.payments.refunds.size).toBe(1);
  });

  it('answers 404 to another workspace and 409 to a renewal of an unfinished purchase', async () => {
    const t = setup();
    t.payments.down = true;
    await codeOf(t.create());
    expect(await codeOf(t.send({ type: 'set_auto_renew', workspaceId: 'ws_2', autoRenew: true }))).toBe('not_found');
    expect(await codeOf(t.send({ type: 'renew', workspaceId: 'ws_1', years: 1 }))).toBe('conflict');
  });
});
