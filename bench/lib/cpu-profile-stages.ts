import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

/** The parts of a V8 .cpuprofile (node --cpu-prof) read here. */
interface CpuProfile {
  nodes: { id: number; callFrame: { functionName: string; url: string }; children?: number[] }[];
  startTime: number;
  endTime: number;
  samples: number[];
  timeDeltas: number[];
}

/** A stage and how to recognise its frames: the first rule whose pattern matches a frame's URL or name. */
const STAGES: [string, RegExp][] = [
  [
    'monitor (schedule, reads, probe logic)',
    /libs\/domains\/src\/(node\/domain-monitor|node\/monitor\.|store\/monitor\.|model\/probe-schedule|model\/domain-certificate)|node_modules\/heap-js\//,
  ],
  ['state machine', /libs\/domains\/src\/model\/domain\.(machine|rules)/],
  ['actor runtime (host, leases, shards)', /libs\/actors\//],
  ['outbox relay and webhook deliveries', /libs\/webhooks\//],
  ['DNS (resolver, c-ares)', /libs\/dns\/src\/dns-|node:internal\/dns|getaddrinfo|QueryReqWrap/],
  ['TLS (served-certificate checks)', /served-certificate|node:_tls|node:internal\/tls|node:tls/],
  ['database driver and ORM (pg, knex, MikroORM)', /node_modules\/(pg|pg-protocol|pg-types|knex|@mikro-orm|tarn)\//],
  ['NATS client', /node_modules\/nats\//],
  ['metrics (prom-client)', /node_modules\/prom-client\//],
  ['logging (pino)', /node_modules\/(pino|nestjs-pino|sonic-boom)/],
  ['module loading (start-up)', /node:internal\/modules|source_map/],
];

/** Frames of our own libraries, kept as the caller of a native or Node-internal leaf. */
const OWN = /\/libs\/|node_modules\//;

/**
 * CPU time by stage in the newest .cpuprofile in `dir` (the process must have exited), over the
 * samples from `fromEndMs` to `toEndMs` before the profile's end (its process's exit), from self time: a sample belongs to the innermost frame that matches a stage, so
 * Node internals called by the pg driver count as database work. Idle samples are left out; GC and
 * native frames with no recognisable caller are their own stages. Undefined when no profile exists.
 */
export function profileStages(
  dir: string,
  fromEndMs: number,
  toEndMs = 0,
): { busyMs: number; windowMs: number; stages: [string, number][] } | undefined {
  let files: string[];
  try {
    files = readdirSync(dir).filter((f) => f.endsWith('.cpuprofile'));
  } catch {
    return undefined;
  }
  if (!files.length) return undefined;
  const newest = files.map((f) => join(dir, f)).sort((a, b) => statSync(b).mtimeMs - statSync(a).mtimeMs)[0];
  const profile = JSON.parse(readFileSync(newest, 'utf8')) as CpuProfile;
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const stageOf = new Map<number, string>();
  const classify = (id: number): string => {
    const cached = stageOf.get(id);
    if (cached) return cached;
    const frame = byId.get(id)!.callFrame;
    let stage: string | undefined;
    if (frame.functionName === '(garbage collector)') stage = 'garbage collection';
    else if (frame.functionName === '(idle)') stage = 'idle';
    else if (frame.functionName === '(program)') stage = 'V8 (program)';
    else {
      const key = `${frame.url} ${frame.functionName}`;
      stage = STAGES.find(([, pattern]) => pattern.test(key))?.[0];
      if (!stage && !OWN.test(frame.url)) {
        const up = parent.get(id);
        stage = up !== undefined && byId.get(up)!.callFrame.functionName !== '(root)' ? classify(up) : undefined;
      }
      stage ??= OWN.test(frame.url) ? 'other (our code and libraries)' : 'Node and event loop';
    }
    stageOf.set(id, stage);
    return stage;
  };
  const from = profile.endTime - fromEndMs * 1000;
  const to = profile.endTime - toEndMs * 1000;
  const totals = new Map<string, number>();
  let at = profile.startTime;
  let spanned = 0;
  for (let i = 0; i < profile.samples.length; i++) {
    at += profile.timeDeltas[i];
    if (at < from || at > to) continue;
    const delta = profile.timeDeltas[i + 1] ?? 0;
    spanned += delta;
    const stage = classify(profile.samples[i]);
    if (stage !== 'idle') totals.set(stage, (totals.get(stage) ?? 0) + delta);
  }
  const stages = [...totals].map(([s, us]) => [s, us / 1000] as [string, number]).sort((a, b) => b[1] - a[1]);
  return { busyMs: stages.reduce((a, [, ms]) => a + ms, 0), windowMs: spanned / 1000, stages };
}

/** `stage 12.3 ms (45%); ...` per unit of work, or per second when `per` is the window in seconds. */
export function formatStages(stages: [string, number][], per: number, unit: string): string {
  const total = stages.reduce((a, [, ms]) => a + ms, 0);
  return stages
    .filter(([, ms]) => ms / total >= 0.01)
    .map(([s, ms]) => `${s} ${(ms / per).toFixed(3)} ${unit} (${Math.round((ms / total) * 100)}%)`)
    .join('; ');
}

/** The --cpu-prof-dir given in BENCH_NODE_ARGS, if any. */
export function profileDir(): string | undefined {
  const args = process.env.BENCH_NODE_ARGS ?? '';
  if (!args.includes('--cpu-prof')) return undefined;
  return /--cpu-prof-dir=(\S+)/.exec(args)?.[1] ?? process.cwd();
}
