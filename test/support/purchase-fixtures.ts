import request from 'supertest';
import { TEST_ADMIN_TOKEN } from './test-app';

/** A complete, valid registrant (SPEC 2.6). */
export const REGISTRANT = {
  firstName: 'Ada',
  lastName: 'Lovelace',
  email: 'ada@example.com',
  phone: '+44.2071234567',
  address1: '12 St James Square',
  city: 'London',
  stateOrProvince: 'London',
  postalCode: 'SW1Y 4JH',
  country: 'GB',
};

/** A workspace with the given saved card (none: no card) through the admin API, on an in-process or real server. */
export async function purchaseWorkspace(
  target: string | Parameters<typeof request>[0],
  paymentMethod?: string,
): Promise<{ apiKey: string; workspaceId: string }> {
  const res = await request(target)
    .post('/admin/workspaces')
    .set('authorization', `Bearer ${TEST_ADMIN_TOKEN}`)
    .send(paymentMethod ? { name: 'buyer', paymentMethod } : { name: 'buyer' })
    .expect(201);
  return { apiKey: res.body.apiKey as string, workspaceId: res.body.workspace.id as string };
}

/** A unique hostname under `.com` for one test, with an optional sandbox prefix (`taken`, `refuse`). */
export function uniqueDomain(prefix = 'buy', tld = 'com'): string {
  return `${prefix}-${Date.now().toString(36)}${Math.random().toString(36).slice(2, 8)}.${tld}`;
}

/**
 * Makes the sandbox registrar refuse DNS writes for names starting `nsfail-` (as for a domain moved to
 * custom nameservers at registration): autoConnect then fails after the Domain was created.
 */
export async function refuseDnsWritesForNsfailNames(query: (sql: string) => Promise<unknown>): Promise<void> {
  await query(`create or replace function test_nsfail() returns trigger language plpgsql as $$
    begin
      if new.hostname like 'nsfail-%' then new.nameservers := '{ns1.elsewhere.example}'; end if;
      return new;
    end $$`);
  await query(`create trigger test_nsfail before insert on sandbox_registrations
    for each row execute function test_nsfail()`);
}
