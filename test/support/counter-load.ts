import { ActorClient } from '@app/actors';
import { randomUUID } from 'node:crypto';
import { Client } from 'pg';

export interface LoadResult {
  /** Acknowledged command ids per actor. */
  acked: Map<string, string[]>;
  failures: { id: string; error: string }[];
  total: number;
  /** The longest any acknowledged command waited, in ms. */
  slowestMs: number;
}

export interface RunningLoad {
  stop(): Promise<LoadResult>;
  /** Acknowledged commands so far. */
  ackedCount(): number;
}

/** Constant load: `concurrency` workers each send `add 1` to a random counter, back to back. */
export function runCounterLoad(
  actors: ActorClient,
  ids: string[],
  concurrency: number,
  /** Each command's total retry budget (the client's default is 30 s). */
  deadlineMs?: number,
): RunningLoad {
  const acked = new Map<string, string[]>();
  const failures: { id: string; error: string }[] = [];
  let running = true;
  let total = 0;
  let ackedCount = 0;
  let slowestMs = 0;
  const worker = async () => {
    while (running) {
      const id = ids[Math.floor(Math.random() * ids.length)];
      const commandId = randomUUID();
      total++;
      const sentAt = Date.now();
      try {
        await actors.ask('counter', id, { op: 'add', n: 1 }, { commandId, deadlineMs });
        slowestMs = Math.max(slowestMs, Date.now() - sentAt);
        acked.set(id, [...(acked.get(id) ?? []), commandId]);
        ackedCount++;
      } catch (error) {
        failures.push({ id, error: error instanceof Error ? error.message : String(error) });
      }
    }
  };
  const workers = Array.from({ length: concurrency }, worker);
  return {
    ackedCount: () => ackedCount,
    stop: async () => {
      running = false;
      await Promise.all(workers);
      return { acked, failures, total, slowestMs };
    },
  };
}

interface EventRow {
  aggregate_id: string;
  data: { value: number; owner: string; epoch: number; startedAt: number };
  created_at: Date;
}

/**
 * Checks the database against what clients saw: every acknowledged command is recorded, each
 * counter's value equals its applied commands, and no two owners ever handled one actor at once
 * (consecutive writes by different owners have rising epochs and never overlap in time).
 */
export async function verifyCounters(
  databaseUrl: string,
  load: LoadResult,
): Promise<{ applied: number; handoffs: number }> {
  const pg = new Client({ connectionString: databaseUrl });
  await pg.connect();
  try {
    const ackedIds = [...load.acked.values()].flat();
    const recorded = await pg.query<{ n: string }>(
      'select count(*) as n from actor_commands where command_id = any($1)',
      [ackedIds],
    );
    if (Number(recorded.rows[0].n) !== ackedIds.length) {
      throw new Error(`Only ${recorded.rows[0].n} of ${ackedIds.length} acknowledged commands are in the database`);
    }
    const snapshots = await pg.query<{ id: string; value: string }>(
      "select id, state->>'value' as value from actor_snapshots where kind = 'counter'",
    );
    const events = await pg.query<EventRow>(
      "select aggregate_id, data, created_at from outbox_events where aggregate_kind = 'counter'",
    );
    const byActor = new Map<string, EventRow[]>();
    for (const row of events.rows) byActor.set(row.aggregate_id, [...(byActor.get(row.aggregate_id) ?? []), row]);
    let applied = 0;
    let handoffs = 0;
    for (const { id, value } of snapshots.rows) {
      const rows = (byActor.get(id) ?? []).sort((a, b) => a.data.value - b.data.value);
      const values = rows.map((r) => r.data.value);
      const expected = Array.from({ length: Number(value) }, (_, i) => i + 1);
      if (values.join(',') !== expected.join(','))
        throw new Error(`Counter ${id} has events ${values.join(',')} for value ${value}`);
      if (Number(value) < (load.acked.get(id)?.length ?? 0))
        throw new Error(`Counter ${id} lost acknowledged commands`);
      applied += Number(value);
      for (let i = 1; i < rows.length; i++) {
        const [before, after] = [rows[i - 1], rows[i]];
        if (before.data.owner === after.data.owner && before.data.epoch === after.data.epoch) continue;
        handoffs++;
        if (after.data.epoch <= before.data.epoch && after.data.owner !== before.data.owner) {
          throw new Error(`Counter ${id}: epoch went from ${before.data.epoch} to ${after.data.epoch}`);
        }
        if (after.data.startedAt < before.created_at.getTime()) {
          throw new Error(
            `Counter ${id}: ${after.data.owner} started before ${before.data.owner} wrote value ${before.data.value}`,
          );
        }
      }
    }
    return { applied, handoffs };
  } finally {
    await pg.end();
  }
}
