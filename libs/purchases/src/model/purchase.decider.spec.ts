import { DomainError } from '@app/kernel';
import { PurchaseEnv } from './purchase-decisions.types';
import { connectAnswer, createAnswer, decideConnect, decideCreate, decideNameservers } from './purchase.decider';
import { PurchaseOrder } from './purchase.protocol';
import { PurchaseRecord } from './purchase.record';

const env: PurchaseEnv = {
  id: 'pur_1',
  now: new Date('2026-06-01T00:00:00Z'),
  fees: { percent: 15, minCents: 200 },
  registrar: 'memory',
  registrarNameservers: ['ns1.registrar.example'],
};
const registrant = { firstName: 'A', lastName: 'B', email: 'a@b.example', country: 'US' };
const order = {
  hostname: 'bought.example',
  years: 1,
  registrant,
  whoisPrivacy: false,
  autoRenew: false,
} as PurchaseOrder;
const price = { wholesaleCents: 1000, feeCents: 200, totalCents: 1200, currency: 'USD' as const };
const create = { type: 'create' as const, workspaceId: 'ws_1', order };

/** A purchase as `decideCreate` writes it, with its saga moved to `saga`. */
function purchase(saga: Partial<PurchaseRecord['saga']>, extra: Partial<PurchaseRecord> = {}): PurchaseRecord {
  const { start } = decideCreate(create, env, { quote: price }) as { start: PurchaseRecord };
  return { ...start, ...extra, saga: { ...start.saga, ...saga } };
}
const completed = { status: 'completed', step: 'completed' } as const;
const connect = {
  type: 'connect' as const,
  workspaceId: 'ws_1',
  settings: { originUrl: 'https://o.example', keepHost: false },
};

const errorOf = (decide: () => unknown) => {
  try {
    decide();
  } catch (error) {
    if (error instanceof DomainError) return { code: error.code, message: error.message };
  }
  return undefined;
};

describe('purchase decisions', () => {
  it('quotes a new purchase before writing it, then starts its saga at the charge', () => {
    expect(decideCreate(create, env, {})).toEqual({ need: { type: 'quote', order } });
    const { start } = decideCreate(create, env, { quote: price }) as { start: PurchaseRecord };
    expect(start).toMatchObject({ id: 'pur_1', totalCents: 1200, registrar: 'memory', saga: { step: 'charging' } });
  });

  it('answers a waiting purchase or connect call with the outage its record keeps', () => {
    const waiting = purchase({ step: 'registering', outage: 'registrar timeout' });
    expect(errorOf(() => createAnswer(waiting, env))).toEqual({
      code: 'service_unavailable',
      message: 'The purchase is pending (registering): registrar timeout; it is retried automatically',
    });
    const connecting = purchase({ ...completed, step: 'routing', connectCall: true });
    expect(errorOf(() => connectAnswer(connecting, env))?.message).toMatch(/: a provider is unavailable;/);
  });

  it('asks whether an earlier connect call’s Domain still exists only when there is one', () => {
    const fresh = decideConnect(purchase(completed), connect, env, {});
    expect(fresh).toMatchObject({ start: { saga: { step: 'connecting', connectCall: true, connectAttempts: 1 } } });
    const connectedBefore = purchase({ ...completed, connectedDomainId: 'dom_1' });
    expect(decideConnect(connectedBefore, connect, env, {})).toEqual({
      need: { type: 'domain_exists', domainId: 'dom_1' },
    });
    expect(errorOf(() => decideConnect(connectedBefore, connect, env, { domainExists: true }))?.code).toBe('conflict');
    expect(decideConnect(connectedBefore, connect, env, { domainExists: false })).toHaveProperty('start');
  });

  it('sets nameservers at the registrar, then tells a connected Domain whose DNS it is', () => {
    const connected = purchase({ ...completed, connectedDomainId: 'dom_1' });
    const custom = decideNameservers(
      connected,
      { type: 'set_nameservers', workspaceId: 'ws_1', nameservers: ['ns.x'] },
      env,
    );
    expect(custom.effects).toEqual([
      { type: 'set_nameservers', hostname: 'bought.example', nameservers: ['ns.x'] },
      { type: 'registrar_dns', domainId: 'dom_1', workspaceId: 'ws_1', hostname: 'bought.example', registrarDns: null },
    ]);
    const ours = decideNameservers(
      purchase(completed),
      { type: 'set_nameservers', workspaceId: 'ws_1', nameservers: [] },
      env,
    );
    expect(ours.effects).toHaveLength(1);
    expect(ours.decision.reply.nameservers).toEqual(['ns1.registrar.example']);
    expect(
      errorOf(() =>
        decideNameservers(purchase({}), { type: 'set_nameservers', workspaceId: 'ws_1', nameservers: [] }, env),
      )?.code,
    ).toBe('conflict');
  });
});
