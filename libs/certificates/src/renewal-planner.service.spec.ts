import { AcmeIssuerConfig } from '@app/config';
import { AcmeIssuers } from './acme/acme-issuers.service';
import { RenewalInfo } from './acme/acme-client';
import { RenewalPlanner } from './renewal-planner.service';

const MINUTE = 60_000;
const ISSUER = { name: 'letsencrypt' } as AcmeIssuerConfig;
const now = Date.now();
const cert = { notBefore: new Date(now), notAfter: new Date(now + 90 * 86_400_000), certId: 'aki.serial' };

/** The CA's side (AcmeIssuers.renewalInfo) answering what each case needs. */
const planner = (answer: () => Promise<RenewalInfo | undefined>) =>
  new RenewalPlanner({ renewalInfo: answer } as unknown as AcmeIssuers);

describe('RenewalPlanner', () => {
  const window = { start: new Date(now + 50 * 86_400_000), end: new Date(now + 52 * 86_400_000) };

  it('renews inside the CA window and asks again when the CA said (Retry-After)', async () => {
    const plan = await planner(async () => ({ window, retryAfter: new Date(now + 3 * 3_600_000) })).plan(ISSUER, cert);
    expect(plan.renewAt.getTime()).toBeGreaterThanOrEqual(window.start.getTime());
    expect(plan.renewAt.getTime()).toBeLessThanOrEqual(window.end.getTime());
    expect(Math.abs(plan.ariCheckAt!.getTime() - (now + 3 * 3_600_000))).toBeLessThan(MINUTE);
  });

  it('keeps a renewal time still inside a new window (no change to tell), moves one outside it', async () => {
    const kept = new Date(now + 51 * 86_400_000);
    expect((await planner(async () => ({ window })).plan(ISSUER, cert, kept)).renewAt).toEqual(kept);
    const outside = new Date(now + 60 * 86_400_000);
    const moved = (await planner(async () => ({ window })).plan(ISSUER, cert, outside)).renewAt;
    expect(moved.getTime()).toBeLessThanOrEqual(window.end.getTime());
  });

  it('asks between a minute and a day later whatever Retry-After says, six hours without one', async () => {
    const soon = await planner(async () => ({ window, retryAfter: new Date(now + 1_000) })).plan(ISSUER, cert);
    expect(soon.ariCheckAt!.getTime() - Date.now()).toBeGreaterThanOrEqual(MINUTE - 1_000);
    const none = await planner(async () => ({ window })).plan(ISSUER, cert);
    expect(Math.abs(none.ariCheckAt!.getTime() - Date.now() - 6 * 60 * MINUTE)).toBeLessThan(MINUTE);
  });

  it('falls back to the lifetime rule without ARI, and retries ARI in an hour when it failed', async () => {
    const without = await planner(async () => undefined).plan(ISSUER, cert);
    expect(without.ariCheckAt).toBeNull();
    expect(without.renewAt.getTime()).toBeGreaterThanOrEqual(now + 45 * 86_400_000 - 1_000);
    const failed = await planner(async () => Promise.reject(new Error('down'))).plan(ISSUER, cert);
    expect(Math.abs(failed.ariCheckAt!.getTime() - Date.now() - 60 * MINUTE)).toBeLessThan(MINUTE);
    expect(failed.renewAt.getTime()).toBeLessThanOrEqual(now + 60 * 86_400_000 + 1_000);
  });
});
