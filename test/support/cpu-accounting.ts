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

/** How often processes are read while a window is open: one that exits keeps what it used until then. */
const SAMPLE_EVERY_MS = 200;

/**
 * Starts accounting CPU over a window: `stop()` says how much of the machine other work took while
 * a timing was measured, so a test can tell a slow result from a starved one. The test's processes are
 * read every 200 ms, so one killed or exited meanwhile (a crashed PostgreSQL, pg_ctl) still counts as
 * the test's up to its last reading.
 */
export function startCpuAccounting(servers = /^(postgres|nats-server)$/): { stop(): CpuShare } {
  const before = sample();
  const first = new Map<number, number>();
  const last = new Map<number, number>();
  const read = (s: Sample) => {
    for (const pid of ours(s, process.pid, servers)) {
      const ticks = s.perProcess.get(pid)!.ticks;
      if (!first.has(pid)) first.set(pid, before.perProcess.get(pid)?.ticks ?? 0);
      last.set(pid, ticks);
    }
  };
  read(before);
  const timer = setInterval(() => read(sample()), SAMPLE_EVERY_MS);
  timer.unref();
  return {
    stop() {
      clearInterval(timer);
      const after = sample();
      read(after);
      const seconds = (after.at - before.at) / 1000;
      let testTicks = 0;
      for (const [pid, ticks] of last) testTicks += ticks - first.get(pid)!;
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
 * Runs `check` (a timing's assertions) unless other work took more than a third of the machine
 * while it was measured (a third, not less: a crashed PostgreSQL's last tenth of a second is lost to the
 * accounting, 0.5 cores in a 0.6 s window): then a time says how busy the machine was, not how fast the service is, and
 * it is printed instead. Correctness is asserted by the caller either way.
 */
export function judgeTimes(share: CpuShare, what: string, check: () => void): boolean {
  if (share.otherCores > share.cores / 3) {
    console.warn(`${what}: other work took ${share.otherCores} of ${share.cores} cores meanwhile, times not judged`);
    return false;
  }
  check();
  return true;
}
