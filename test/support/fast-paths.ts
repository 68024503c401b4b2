import request, { Response } from 'supertest';
import { TEST_ADMIN_TOKEN, TestApp } from './test-app';

/** Headers whose values differ per request by nature. */
const PER_REQUEST = new Set(['date', 'x-service-request-id', 'x-ratelimit-remaining', 'connection', 'keep-alive']);

/** An answer's headers without those, for comparing a fast path's answer with the pipeline's. */
export const stableHeaders = (res: Response) =>
  Object.fromEntries(Object.entries(res.headers).filter(([name]) => !PER_REQUEST.has(name)));

/** A workspace with a card, made through the admin API: its API key and the key's id. */
export async function workspaceWithKey(server: TestApp['server']): Promise<{ key: string; keyId: string }> {
  const res = await request(server)
    .post('/admin/workspaces')
    .set('authorization', `Bearer ${TEST_ADMIN_TOKEN}`)
    .send({ name: 'fast', paymentMethod: 'pm_card_visa' })
    .expect(201);
  return { key: res.body.apiKey as string, keyId: res.body.apiKeyId as string };
}
