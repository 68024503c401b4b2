import { readFileSync } from 'node:fs';
import { cpus, release, totalmem, type } from 'node:os';
import { connect } from 'nats';
import { onServer } from './database';
import { Machine } from './types';

function cpuModel(): string {
  try {
    const match = /^model name\s*:\s*(.+)$/m.exec(readFileSync('/proc/cpuinfo', 'utf8'));
    if (match) return match[1].trim();
  } catch {
    // not Linux: fall back to what Node reports
  }
  return cpus()[0]?.model ?? 'unknown';
}

/** The machine and the versions of what the benchmarks ran against. */
export async function describeMachine(natsUrl: string): Promise<Machine> {
  const postgres = await onServer(
    async (c) => (await c.query<{ v: string }>("select current_setting('server_version') as v")).rows[0].v,
  );
  const nc = await connect({ servers: natsUrl, name: 'bench-version' });
  const nats = nc.info?.version ?? 'unknown';
  await nc.close();
  return {
    cpu: cpuModel(),
    cores: cpus().length,
    memoryGiB: Math.round((totalmem() / 2 ** 30) * 10) / 10,
    os: `${type()} ${release()}`,
    node: process.version,
    postgres,
    nats,
  };
}

export const describe = (m: Machine) =>
  `${m.cpu}, ${m.cores} cores, ${m.memoryGiB} GiB RAM, ${m.os}, Node ${m.node}, ` +
  `PostgreSQL ${m.postgres}, NATS ${m.nats}`;

function cpuTimes(): { busy: number; total: number } | undefined {
  try {
    const fields = readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/).slice(1, 9).map(Number);
    const total = fields.reduce((a, b) => a + b, 0);
    return { busy: total - fields[3] - fields[4], total };
  } catch {
    return undefined;
  }
}

/**
 * How busy the machine is with other work: percent of all cores in use over `ms`, sampled while no
 * benchmark runs. (The load average would still count the previous benchmark's own processes.)
 */
export async function busyPercent(ms = 1_000): Promise<number | undefined> {
  const before = cpuTimes();
  await new Promise((resolve) => setTimeout(resolve, ms));
  const after = cpuTimes();
  if (!before || !after || after.total === before.total) return undefined;
  return Math.round(((after.busy - before.busy) / (after.total - before.total)) * 100);
}
