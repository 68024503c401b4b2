import { readFileSync } from 'node:fs';

/**
 * `node dist/bench/profile-summary.js <file.cpuprofile> [top] [last seconds]`: self time of a V8 CPU profile
 * (`node --cpu-prof`) summed per request stage (auth, rate limit, ORM/driver, logging, ...), per
 * package or source file, and per function, as shares of the profile's busy (non-idle) time.
 */

interface CallFrame {
  functionName: string;
  url: string;
  lineNumber: number;
}
interface ProfileNode {
  id: number;
  callFrame: CallFrame;
  children?: number[];
}
interface CpuProfile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
  endTime: number;
  startTime: number;
}

/** First match wins: the stage of the pipeline a frame's own time belongs to. */
const STAGES: [string, RegExp][] = [
  ['auth', /libs\/auth\/|libs\/oauth\/|libs\/connect-sessions\/|jsonwebtoken|\(crypto\)|node:crypto/],
  ['rate limit', /libs\/limits\/src\/rate-limit/],
  ['idempotency', /libs\/limits\/src\/idempotency/],
  ['validation', /class-validator|class-transformer|libs\/http\/src\/validation|ValidationPipe/],
  ['ORM/driver', /@mikro-orm|\/knex\/|\/pg\/|pg-protocol|pg-pool|pg-types|postgres-|libs\/persistence\//],
  ['logging', /pino|nestjs-pino|sonic-boom|fast-redact|libs\/http\/src\/request-logger/],
  ['bus', /\/nats\/|libs\/bus\//],
  ['actor', /libs\/actors\//],
  ['domain code', /libs\/domains\/|libs\/hostname-rules\/|libs\/workspaces\/|libs\/projects\//],
  ['DNS', /libs\/dns\/|node:dns|\(dns\)|dns-packet/],
  ['serialization', /JSON|fast-json-stringify|serializ/],
  ['metrics', /prom-client|libs\/health\//],
  ['Nest pipeline', /@nestjs|rxjs|reflect-metadata|libs\/http\//],
  ['Fastify', /fastify|find-my-way|avvio|light-my-request|middie/],
  [
    'HTTP and sockets (Node)',
    /node:(net|http|_http|stream|internal\/streams)|_http_|\bnet\.js|internal\/(stream|http|net)/,
  ],
];

function ownStage(frame: CallFrame): string | undefined {
  if (frame.functionName === '(idle)') return '(idle)';
  if (frame.functionName === '(garbage collector)') return 'GC';
  if (frame.functionName === '(program)') return 'V8/native (program)';
  const where = `${frame.url} ${frame.functionName}`;
  for (const [stage, pattern] of STAGES) if (pattern.test(where)) return stage;
  return undefined;
}

/**
 * The stage of a sample: that of the nearest frame on its stack that belongs to one, so a native
 * or Node-internal function is charged to the code that called it (a socket write from pg to
 * ORM/driver, JSON.stringify from pino to logging).
 */
function stageOf(node: ProfileNode, parents: Map<number, ProfileNode>): string {
  for (let at: ProfileNode | undefined = node; at; at = parents.get(at.id)) {
    if (/internal\/modules\/(cjs|esm)\//.test(at.callFrame.url)) return 'startup (module loading)';
  }
  for (let at: ProfileNode | undefined = node; at; at = parents.get(at.id)) {
    const stage = ownStage(at.callFrame);
    if (stage) return stage;
  }
  return node.callFrame.url ? 'other JS' : `native: ${node.callFrame.functionName || '(anonymous)'}`;
}

function packageOf(url: string): string {
  const nm = url.lastIndexOf('node_modules/');
  if (nm >= 0) {
    const rest = url.slice(nm + 'node_modules/'.length).split('/');
    return rest[0].startsWith('@') ? `${rest[0]}/${rest[1]}` : rest[0];
  }
  const dist = url.indexOf('/dist/');
  if (dist >= 0) return url.slice(dist + 6);
  return url || '(native)';
}

/** `lastSeconds`: only the samples of the profile's last seconds (the measured rounds, not the set-up). */
export function summarize(profile: CpuProfile, lastSeconds = Infinity) {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parents = new Map<number, ProfileNode>();
  for (const n of profile.nodes) for (const c of n.children ?? []) parents.set(c, n);
  const self = new Map<number, number>();
  const from = profile.endTime - lastSeconds * 1e6;
  let at = profile.startTime;
  profile.samples.forEach((id, i) => {
    at += profile.timeDeltas[i] ?? 0;
    if (at >= from) self.set(id, (self.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0));
  });
  const stages = new Map<string, number>();
  const files = new Map<string, number>();
  const functions = new Map<string, number>();
  let busy = 0;
  for (const [id, us] of self) {
    const node = byId.get(id)!;
    const frame = node.callFrame;
    const stage = stageOf(node, parents);
    if (stage === '(idle)') continue;
    busy += us;
    const add = (m: Map<string, number>, k: string) => m.set(k, (m.get(k) ?? 0) + us);
    add(stages, stage);
    add(files, packageOf(frame.url));
    add(functions, `${frame.functionName || '(anonymous)'} ${packageOf(frame.url)}:${frame.lineNumber + 1}`);
  }
  return { busyMs: busy / 1000, stages, files, functions };
}

function print(title: string, m: Map<string, number>, busyUs: number, top: number): void {
  console.log(`\n${title}`);
  for (const [k, us] of [...m].sort((a, b) => b[1] - a[1]).slice(0, top)) {
    console.log(`  ${((us / busyUs) * 100).toFixed(1).padStart(5)}%  ${(us / 1000).toFixed(0).padStart(7)} ms  ${k}`);
  }
}

if (require.main === module) {
  const [file, topArg, lastArg] = process.argv.slice(2);
  if (!file) throw new Error('usage: profile-summary <file.cpuprofile> [top] [last seconds]');
  const top = Number(topArg ?? 25);
  const last = Number(lastArg ?? Infinity);
  const profile = JSON.parse(readFileSync(file, 'utf8')) as CpuProfile;
  const { busyMs, stages, files, functions } = summarize(profile, last);
  const span = Math.min(last, (profile.endTime - profile.startTime) / 1e6);
  console.log(`${file}: ${busyMs.toFixed(0)} ms busy (idle excluded) in the last ${span.toFixed(0)} s`);
  print('Self time per stage', stages, busyMs * 1000, 40);
  print('Self time per package or file', files, busyMs * 1000, top);
  print('Self time per function', functions, busyMs * 1000, top);
}
