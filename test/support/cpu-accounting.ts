import { readFileSync, readdirSync } from 'node:fs';
import { cpus } from 'node:os';

/** CPU time in clock ticks (USER_HZ) from /proc: the machine's busy time and each process's own. */
interface Sample {
  at: number;
  machineBusy: number;
  perProcess: Map<number, { ticks: number; ppid: number; comm: string }>;
}

const TICKS_PER_SECOND = 100; // USER_HZ on Linux

function sample(): Sample {
  const [, ...fields] = readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/);
  // irq and softirq are left out: loopback traffic (the test's own, with PostgreSQL and NATS) is
  // accounted there and to no process. steal stays: a hypervisor taking the CPU is other work too.
  const [user, nice, system, , , , , steal] = fields.map(Number);
  const perProcess = new Map<number, { ticks: number; ppid: number; comm: string }>();
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      // comm is in parentheses and may hold spaces: the fields after it are fixed.
      const close = stat.lastIndexOf(')');
      const comm = stat.slice(stat.indexOf('(') + 1, close);
      const rest = stat.slice(close + 2).split(' ');
      perProcess.set(Number(name), { ppid: Number(rest[1]), comm, ticks: Number(rest[11]) + Number(rest[12]) });
    } catch {
      // exited while we read
    }
  }
  return { at: Date.now(), machineBusy: user + nice + system + steal, perProcess };
}

/** Processes of the test: this one and its descendants, and the shared servers it talks to. */
function ours(s: Sample, root: number, servers: RegExp): Set<number> {
  const mine = new Set<number>([root]);
  for (let grew = true; grew;) {
    grew = false;
    for (const [pid, p] of s.perProcess)
      if (!mine.has(pid) && (mine.has(p.ppid) || servers.test(p.comm))) {
        mine.add(pid);
        grew = true;
      }
  }
  return mine;
}

export interface CpuShare {
  seconds: number;
  /** Cores' worth of CPU the whole machine was busy with. */
  machineCores: number;
  /** Of that, this test's processes and the PostgreSQL and NATS servers. */
  testCores: number;
  /** The rest: other work on the machine competing with the test (other test files, anything else). */
  otherCores: number;
  cores: number;
}

/**
 * Starts accounting CPU over a window: `stop()` says how much of the machine other work took while
 * a timing was measured, so a test can tell a slow result from a starved one.
 */
export function startCpuAccounting(servers = /^(postgres|nats-server)$/): { stop(): CpuShare } {
  const before = sample();
  return {
    stop() {
      const after = sample();
      const seconds = (after.at - before.at) / 1000;
      let testTicks = 0;
      for (const pid of ours(after, process.pid, servers)) {
        const now = after.perProcess.get(pid)!.ticks;
        testTicks += now - (before.perProcess.get(pid)?.ticks ?? 0);
      }
      const machineTicks = after.machineBusy - before.machineBusy;
      const cores = (ticks: number) => Math.round((ticks / TICKS_PER_SECOND / seconds) * 100) / 100;
      return {
        seconds,
        machineCores: cores(machineTicks),
        testCores: cores(testTicks),
        otherCores: cores(Math.max(0, machineTicks - testTicks)),
        cores: cpus().length,
      };
    },
  };
}

/**
 * Runs `check` (a timing's assertions) unless other work took more than a quarter of the machine
 * while it was measured: then a time says how busy the machine was, not how fast the service is, and
 * it is printed instead. Correctness is asserted by the caller either way.
 */
export function judgeTimes(share: CpuShare, what: string, check: () => void): boolean {
  if (share.otherCores > share.cores / 4) {
    console.warn(`${what}: other work took ${share.otherCores} of ${share.cores} cores meanwhile, times not judged`);
    return false;
  }
  check();
  return true;
}
