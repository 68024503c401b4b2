import { ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import {
  REPO_ROOT,
  TestDatabase,
  createTestDatabase,
  eventually,
  freeEdgePorts,
  freePort,
  openApiProcessEnv,
} from '@test/support';

const MAIN = resolve(REPO_ROOT, 'dist/apps/standalone/src/main.js');
const BANNER_END = /-d '\{"name":"Acme","paymentMethod":"pm_card_visa"\}'\s*\n/;
// eslint-disable-next-line no-control-regex
const ANSI = /\u001b\[[0-9;]*m/g;

interface Run {
  child: ChildProcess;
  output: () => string;
}

/** The built standalone, through `script` (a pseudo-terminal: stdout.isTTY) or with piped stdout. */
function start(env: Record<string, string>, tty: boolean): Run {
  const command = tty ? 'script' : process.execPath;
  const args = tty ? ['-qfec', `${process.execPath} ${MAIN}`, '/dev/null'] : [MAIN];
  const child = spawn(command, args, {
    cwd: REPO_ROOT,
    env: {
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? '/tmp',
      LOG_LEVEL: 'info',
      ...openApiProcessEnv(),
      ...env,
    },
    stdio: ['pipe', 'pipe', 'pipe'],
    detached: true, // its own process group, so cleanup reaches the node under `script` too
  });
  let output = '';
  const onData = (chunk: Buffer) => void (output += chunk.toString());
  child.stdout?.on('data', onData);
  child.stderr?.on('data', onData);
  return { child, output: () => output.replace(ANSI, '').replace(/\r/g, '') };
}

async function waitForBanner(run: Run, timeoutMs = 120_000): Promise<string> {
  const output = await eventually(run.output, (out) => BANNER_END.test(out) || run.child.exitCode !== null, {
    timeoutMs,
    what: 'the start banner',
  });
  if (!BANNER_END.test(output)) throw new Error(`no banner; output:\n${output}`);
  return output;
}

async function stop(run: Run | undefined): Promise<void> {
  if (!run?.child.pid || run.child.exitCode !== null) return;
  const exited = new Promise((done) => run.child.once('exit', done));
  try {
    process.kill(-run.child.pid, 'SIGTERM');
  } catch {
    return;
  }
  const timer = setTimeout(() => {
    try {
      process.kill(-run.child.pid!, 'SIGKILL');
    } catch {
      /* already gone */
    }
  }, 10_000);
  await exited;
  clearTimeout(timer);
}

const isJson = (line: string) => {
  try {
    return typeof JSON.parse(line) === 'object';
  } catch {
    return false;
  }
};

/** Splits the output at the banner: the log lines before it, and what comes from its first line on. */
function split(output: string): { logs: string[]; tail: string[] } {
  const lines = output.split('\n');
  const first = lines.findIndex((l) => l.includes('Custom domains service (standalone) is up at'));
  expect(first).toBeGreaterThan(0);
  return {
    logs: lines.slice(0, first).filter((l) => l.trim()),
    tail: lines.slice(first).filter((l) => l.trim()),
  };
}

describe('npm start: the banner comes last; logs pretty on a terminal, JSON otherwise; the admin token only on a terminal', () => {
  let db: TestDatabase;
  let dataDir: string;
  let run: Run | undefined;

  beforeAll(async () => {
    db = await createTestDatabase();
    dataDir = mkdtempSync(join(tmpdir(), 'banner-'));
  });
  afterEach(() => stop(run));
  afterAll(async () => {
    await stop(run);
    await db?.drop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  const env = async () => ({
    PORT: String(await freePort()),
    DATA_DIR: dataDir,
    DATABASE_URL: db.url,
    ...(await freeEdgePorts()),
  });

  const adminToken = () => readFileSync(join(dataDir, 'admin-token'), 'utf8').trim();

  it('on a terminal: readable log lines, no JSON, the banner last', async () => {
    run = start(await env(), true);
    const { logs, tail } = split(await waitForBanner(run));
    // A person at a terminal sees the token (README's quickstart), and where it is kept.
    expect(tail).toContain(`  Admin token: ${adminToken()}  (generated, kept in ${dataDir}/admin-token)`);
    expect(logs.length).toBeGreaterThan(0);
    expect(logs.filter(isJson)).toEqual([]);
    expect(logs.some((l) => /^\[\d\d:\d\d:\d\d\.\d{3}\] INFO: /.test(l))).toBe(true);
    // Nest's per-route lines are at debug now, not ~140 lines burying the banner.
    expect(logs.filter((l) => l.includes('Mapped {'))).toEqual([]);
    expect(tail[tail.length - 1]).toMatch(/-d '\{"name":"Acme"/);
    expect(tail.every((l) => /^ {2}\S| {15}/.test(l))).toBe(true);
  });

  it('on a terminal, a request line shows its status (it was null on every line)', async () => {
    const settings = await env();
    run = start(settings, true);
    await waitForBanner(run);
    expect((await fetch(`http://127.0.0.1:${settings.PORT}/v1/workspace`)).status).toBe(401);
    const output = await eventually(run.output, (out) => out.includes('request completed'), {
      what: 'the request line',
    });
    const line = output.slice(output.lastIndexOf('INFO: request completed'));
    expect(line).toMatch(/"url": "\/v1\/workspace"[\s\S]*"statusCode": 401/);
  });

  it('piped: every log line is JSON (the banner aside)', async () => {
    run = start(await env(), false);
    const output = await waitForBanner(run);
    const lines = output.split('\n').filter((l) => l.trim());
    const banner = lines.filter((l) => /^ {2}\S| {15}/.test(l));
    expect(banner[0]).toContain('Custom domains service (standalone) is up at');
    const logs = lines.filter((l) => !banner.includes(l));
    expect(logs.length).toBeGreaterThan(0);
    expect(logs.filter((l) => !isJson(l))).toEqual([]);
    expect(logs.every((l) => typeof (JSON.parse(l) as { level: unknown }).level === 'number')).toBe(true);
    // A collected log stream never holds the admin token: the banner names the file instead.
    expect(output).not.toContain(adminToken());
    expect(banner).toContain(`  Admin token: in ${dataDir}/admin-token (not printed where logs are collected; cat it)`);
  });

  it('JSON logs on a terminal (LOG_FORMAT=json, as under a container runtime with a tty): no token either', async () => {
    run = start({ ...(await env()), LOG_FORMAT: 'json' }, true);
    const output = await waitForBanner(run);
    expect(output).toContain(`in ${dataDir}/admin-token (not printed where logs are collected`);
    expect(output).not.toContain(adminToken());
  });

  it('a token set by ADMIN_TOKEN is not printed off a terminal', async () => {
    const token = 'operator-chosen-admin-token-0123456789';
    run = start({ ...(await env()), ADMIN_TOKEN: token }, false);
    const output = await waitForBanner(run);
    expect(output).toContain('Admin token: the ADMIN_TOKEN you set');
    expect(output).not.toContain(token);
  });
});
