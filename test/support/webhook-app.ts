import { Bus } from '@app/bus';
import { CLOCK, Clock } from '@app/kernel';
import { OUTBOX_QUEUED_SUBJECT } from '@app/webhooks';
import request from 'supertest';
import { TEST_ADMIN_TOKEN, TestApp, startTestApp } from './test-app';

/** A clock the test moves by hand. */
export class ManualClock implements Clock {
  private at: number;
  constructor(at: Date | number = Date.now()) {
    this.at = new Date(at).getTime();
  }
  now(): number {
    return this.at;
  }
  /** The current time as a Date. */
  date(): Date {
    return new Date(this.at);
  }
  set(at: Date | number): void {
    this.at = new Date(at).getTime();
  }
  advance(ms: number): void {
    this.at += ms;
  }
}

/**
 * startTestApp with the process clock replaced: the relay and delivery workers (and every other
 * reader of time) then see only the time the test sets.
 */
export function startTestAppWithClock(clock: Clock, env: Record<string, string> = {}): Promise<TestApp> {
  return startTestApp({ env, overrides: [{ provide: CLOCK, useValue: clock }] });
}

/** A workspace through the admin API: its key and id. */
export async function createWorkspaceVia(
  baseUrlOrServer: string | TestApp['server'],
  card = true,
): Promise<{ apiKey: string; workspaceId: string }> {
  const body = card ? { name: 'webhooks', paymentMethod: 'pm_card_visa' } : { name: 'webhooks' };
  const init = {
    method: 'POST',
    headers: { authorization: `Bearer ${TEST_ADMIN_TOKEN}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  };
  let json: any;
  if (typeof baseUrlOrServer === 'string') {
    json = await (await fetch(`${baseUrlOrServer}/admin/workspaces`, init)).json();
  } else {
    json = (await request(baseUrlOrServer).post('/admin/workspaces').set(init.headers).send(body).expect(201)).body;
  }
  return { apiKey: json.apiKey, workspaceId: json.workspace.id };
}

/**
 * Writes events to the outbox as an actor does (the relay's only input), oldest first; resolves
 * with their ids. `data` defaults to a small domain object. Given a test app, it then wakes the
 * relays as an actor's commit does (over the app's bus); given only a database, the relays find the
 * events at their next poll.
 */
export async function insertOutboxEvents(
  target: TestApp | { query(sql: string, params?: unknown[]): Promise<unknown[]> },
  workspaceId: string,
  events: { type: string; data?: Record<string, unknown> }[],
): Promise<string[]> {
  const db = 'app' in target ? target.db : target;
  const ids = events.map((_, i) => `evt_test${Date.now().toString(36)}${i.toString().padStart(5, '0')}${randomTag()}`);
  await db.query(
    `insert into outbox_events (id, workspace_id, type, data, aggregate_kind, aggregate_id, created_at)
     select id, $1, type, data, 'test', 'test', clock_timestamp() + (n * interval '1 microsecond')
     from unnest($2::text[], $3::text[], $4::jsonb[]) with ordinality as e(id, type, data, n)`,
    [
      workspaceId,
      ids,
      events.map((e) => e.type),
      events.map((e, i) => JSON.stringify(e.data ?? { domain: { id: `dom_test${i}`, hostname: `h${i}.example.com` } })),
    ],
  );
  if ('app' in target) target.app.get(Bus).publish(OUTBOX_QUEUED_SUBJECT, {});
  return ids;
}

const randomTag = () => Math.random().toString(36).slice(2, 8);
