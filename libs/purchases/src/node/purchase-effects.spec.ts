import { DomainError } from '@app/kernel';
import { PurchaseRecord } from '../model/purchase.record';
import { PurchaseEffectDeps, PurchaseEffects } from './purchase-effects';

/** Only what the create_domain effect reads of a purchase. */
const record = {
  id: 'pur_1',
  workspaceId: 'ws_1',
  hostname: 'bought.example',
  nameservers: [],
  autoConnect: { originUrl: 'https://origin.example', keepHost: false },
  saga: { connectAttempts: 0 },
} as unknown as PurchaseRecord;

/** The effects with an origin check that throws `error` and a database that knows no domain. */
function effectsWhoseOriginCheckThrows(error: DomainError): PurchaseEffects {
  const deps = {
    db: { query: async () => [] },
    preflight: { check: () => Promise.reject(error) },
    actors: { ask: () => Promise.reject(new Error('the domain is not created when the origin check fails')) },
  } as unknown as PurchaseEffectDeps;
  return new PurchaseEffects(deps);
}

describe('the create_domain effect when the origin check fails', () => {
  it('retries later when the lookup itself failed (a timeout: "try again")', async () => {
    const lookupFailed = new DomainError(
      'preflight_failed',
      'autoConnect.originUrl: could not resolve origin.example (ETIMEOUT); try again',
      { field: 'autoConnect.originUrl', reason: 'origin_lookup_failed' },
    );
    await expect(effectsWhoseOriginCheckThrows(lookupFailed).run('create_domain', record)).resolves.toEqual({
      type: 'effect_unavailable',
      effect: 'create_domain',
      reason: lookupFailed.message,
    });
  });

  it('fails the connect when the origin answered and is refused', async () => {
    const blocked = new DomainError('preflight_failed', 'autoConnect.originUrl is not allowed: 10.0.0.1 is private', {
      field: 'autoConnect.originUrl',
      reason: 'ssrf_blocked',
    });
    await expect(effectsWhoseOriginCheckThrows(blocked).run('create_domain', record)).resolves.toMatchObject({
      type: 'connect_failed',
      code: 'preflight_failed',
      reason: blocked.message,
    });
  });
});
