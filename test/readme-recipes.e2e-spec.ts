import { ProcessRole, loadConfig } from '@app/config';
import { API_V8_FLAGS } from '../apps/api/src/v8-flags';
import { NODE_V8_FLAGS } from '../apps/node/src/v8-flags';
import { execFile, execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import {
  DnsServer,
  REPO_ROOT,
  TestDatabase,
  createTestDatabase,
  domainEnv,
  domainZones,
  freeEdgePorts,
  freePort,
  startDnsServer,
  startProcess,
  stopAllProcesses,
  waitForUrl,
} from '@test/support';

const README = readFileSync(join(__dirname, '..', 'README.md'), 'utf8');

/** The ```sh blocks under a README heading. */
function shBlocks(heading: string): string[] {
  const start = README.indexOf(`\n## ${heading}\n`);
  if (start < 0) throw new Error(`README has no section "${heading}"`);
  const end = README.indexOf('\n## ', start + 1);
  const section = README.slice(start, end < 0 ? undefined : end);
  return [...section.matchAll(/```sh\n([\s\S]*?)```/g)].map((m) => m[1]);
}

/** The environment the block's `export` lines make, evaluated by a real shell (so `$(openssl ...)` runs). */
function exportedEnv(block: string): Record<string, string> {
  const exports = block
    .split('\n')
    .filter((line) => line.startsWith('export '))
    .join('\n');
  const out = execFileSync('sh', ['-c', `${exports}\nenv -0`], { env: { PATH: process.env.PATH ?? '' } });
  return Object.fromEntries(
    out
      .toString()
      .split('\0')
      .filter(Boolean)
      .map((kv) => [kv.slice(0, kv.indexOf('=')), kv.slice(kv.indexOf('=') + 1)]),
  );
}

/**
 * The README's recipes as a user copies them (the cluster recipe's api once exited 78
 * "ENCRYPTION_KEY is required"): every process the recipe starts accepts the environment it exports.
 */
describe('README recipes', () => {
  it('the cluster recipe gives every process it starts a valid configuration', () => {
    const [block] = shBlocks('Running the cluster (several nodes)');
    const env = exportedEnv(block);
    const starts = [...block.matchAll(/^(.*?)\bnode ((?:--\S+ )*)dist\/apps\/(api|node|edge)\/src\/main\.js/gm)];
    expect(starts.map((m) => m[3]).sort()).toEqual(['api', 'edge', 'node']);
    // The api and the node start as they ship: with their V8 flags (apps/*/src/v8-flags.ts), the edge with none.
    const flags: Record<string, string[]> = { api: API_V8_FLAGS, node: NODE_V8_FLAGS, edge: [] };
    expect(starts.map((m) => [m[3], m[2].trim()])).toEqual(starts.map((m) => [m[3], flags[m[3]].join(' ')]));
    for (const [, prefix, , role] of starts) {
      // `PORT=9101 NODE_ID=node-1 node ...`: the assignments before the command (the loop's $i as 1).
      const inline = Object.fromEntries(
        [...prefix.replace(/\$i/g, '1').matchAll(/([A-Z_]+)=(\S+)/g)].map((m) => [m[1], m[2]]),
      );
      expect(() => loadConfig({ ...env, ...inline }, role as ProcessRole)).not.toThrow();
    }
    // Beside a running quickstart, whose standalone holds the edge's default ports, on a database it makes.
    const edge = loadConfig({ ...env, PORT: '0' }, 'edge');
    expect([edge.edgeHttpPort, edge.edgeHttpsPort].filter((port) => port === 8080 || port === 8443)).toEqual([]);
    const createdb = /^createdb .*?(\S+)\s*(#.*)?$/m.exec(block);
    expect(new URL(env.DATABASE_URL).pathname).toBe(`/${createdb?.[1]}`);
    const scripts = [...block.matchAll(/dist\/(apps\/\w+\/src\/main\.js)/g)].map((m) => join('apps', m[1].slice(5)));
    for (const script of scripts) expect(existsSync(join(__dirname, '..', script.replace(/\.js$/, '.ts')))).toBe(true);
  });

  it('every `npm run` the README names is a script of package.json, and every admin command exists', () => {
    const pkg = JSON.parse(readFileSync(join(__dirname, '..', 'package.json'), 'utf8')) as {
      scripts: Record<string, string>;
    };
    const runs = [...README.matchAll(/npm run ([\w:]+)/g)].map((m) => m[1]);
    expect(runs.length).toBeGreaterThan(3);
    for (const name of runs) expect([name, name in pkg.scripts]).toEqual([name, true]);
    const cli = readFileSync(join(__dirname, '..', 'apps/cli/src/main.ts'), 'utf8');
    const adminCommands = [...README.matchAll(/npm run admin -- ([a-z-]+)/g)].map((m) => m[1]);
    for (const command of adminCommands) {
      if (command === 'help') continue;
      expect([command, cli.includes(`case '${command}':`)]).toEqual([command, true]);
    }
  });

  it('keeps what a user needs inside the repository (no links to files a clone does not have)', () => {
    expect(README).not.toMatch(/\.\.\/shared\//);
  });
});

/** The field names the README shows directly inside the answer's one top-level object (not nested ones). */
function innerFields(shown: string): string[] {
  const fields: string[] = [];
  let depth = 0;
  for (let i = 0; i < shown.length; i++) {
    const c = shown[i];
    if (c === '{' || c === '[') depth++;
    else if (c === '}' || c === ']') depth--;
    else if (c === '"') {
      const end = shown.indexOf('"', i + 1);
      if (depth === 2 && shown[end + 1] === ':') fields.push(shown.slice(i + 1, end));
      i = end;
    }
  }
  return fields;
}

/**
 * The Quickstart as written: its CLI lines and its numbered curl steps run,
 * in order, by a real shell against the built standalone on a free port (PORT and DATA_DIR
 * substituted, `dom_...`/`whe_...` replaced by the ids the earlier steps printed); each answer has
 * the top-level shape the README shows, and step 5's check the verdict it shows.
 *
 * The shell runs asynchronously: the standalone's DNS_RESOLVERS is the loopback DNS server of this
 * very process, which answers only while this process's event loop runs. Run with execFileSync, the
 * standalone's every lookup during a step waited for the step's end (the create's CAA and CNAME,
 * the instructions' provider detection), and the check's CNAME lookup timed out: a 503 ETIMEOUT.
 */
describe('README quickstart', () => {
  let db: TestDatabase;
  let dns: DnsServer;
  let dataDir: string;
  afterAll(async () => {
    await stopAllProcesses();
    await dns?.close();
    await db?.drop();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  it('runs every quickstart command and gets the answers it shows', async () => {
    db = await createTestDatabase();
    dns = await startDnsServer(domainZones());
    dataDir = mkdtempSync(join(tmpdir(), 'quickstart-'));
    const port = await freePort();
    const standalone = startProcess('dist/apps/standalone/src/main.js', {
      PORT: String(port),
      DATA_DIR: dataDir,
      DATABASE_URL: db.url,
      OUTBOUND_ALLOW_CIDRS: '127.0.0.0/8',
      ...domainEnv(dns.address),
      PROPAGATION_RESOLVERS: `Loopback=${dns.address}`,
      ...(await freeEdgePorts()),
    });
    await waitForUrl(standalone, 120_000);
    const quickstart = README.slice(README.indexOf('\n## Quickstart\n'), README.indexOf('\n### The sandbox'));
    // The hostname stays the README's shop.example.com: the loopback DNS does not know it, as the
    // world's DNS has no CNAME for it to the edge, so step 5 answers the verdict the README shows.
    const local = (command: string) =>
      command
        .replace(/localhost:3001|127\.0\.0\.1:3001/g, `127.0.0.1:${port}`)
        .replace(/\.\/quickstart-data/g, dataDir)
        .replace(/npm run admin --/g, `node ${join(REPO_ROOT, 'dist/apps/cli/src/main.js')}`);
    const sh = async (command: string, env: Record<string, string> = {}) =>
      (
        await promisify(execFile)('sh', ['-c', local(command)], {
          cwd: REPO_ROOT,
          env: { PATH: process.env.PATH ?? '', ...env },
        })
      ).stdout.trim();

    // The admin CLI block: create-workspace, then list-workspaces.
    const cliLines = quickstart.split('\n').filter((l) => l.startsWith('DATA_DIR=./quickstart-data npm run admin'));
    expect(cliLines).toHaveLength(2);
    const created = JSON.parse(await sh(cliLines[0])) as { workspace: { id: string }; apiKey: string };
    expect(Object.keys(created)).toEqual(expect.arrayContaining(['workspace', 'apiKey', 'apiKeyId']));
    const listed = JSON.parse(await sh(cliLines[1])) as { workspaces: { id: string }[] };
    expect(listed.workspaces.map((w) => w.id)).toContain(created.workspace.id);

    // The numbered steps: each `curl` with the answer shown after its arrow.
    const steps = [...quickstart.matchAll(/`(curl [^`]+)`\s*\n\s*→ (?:(\d{3}) )?`(\{"(\w+)"[^`]*)`/g)];
    expect(steps.length).toBeGreaterThanOrEqual(5);
    expect(steps.some(([, command]) => command.includes('/check '))).toBe(true);
    const ids: Record<string, string> = {};
    for (const [, command, , shown, key] of steps) {
      const withIds = command.replace(/\b(dom|whe)_\.\.\./g, (m, prefix: string) => ids[prefix] ?? m);
      const answer = JSON.parse(await sh(withIds, { KEY: created.apiKey })) as Record<string, any>;
      expect({ command, keys: Object.keys(answer), message: answer.message }).toEqual({
        command,
        keys: [key],
        message: undefined,
      });
      const shownFields = innerFields(shown);
      expect(shownFields.length).toBeGreaterThan(0);
      expect(Object.keys(answer[key])).toEqual(expect.arrayContaining(shownFields));
      const id = answer[key].id as string | undefined;
      if (id && /^(dom|whe)_/.test(id)) ids[id.slice(0, 3)] ??= id;
      if (command.includes('/check ')) {
        // The check probed DNS now: the domain the README shows, with the verdict it shows.
        const verdict = /"status":"(\w+)","monitorStatus":"(\w+)","monitorMessage":"([^"]+)"/.exec(shown);
        expect(verdict).not.toBeNull();
        const [, status, monitorStatus, monitorMessage] = verdict!;
        expect(answer.domain).toMatchObject({ id: ids.dom, status, monitorStatus, monitorMessage });
        expect(answer.domain.lastCheckedAt).toEqual(expect.any(String));
      }
    }
    expect(Object.keys(ids).sort()).toEqual(['dom', 'whe']);

    // Step 4: the widget page the connect-session token opens.
    const token = JSON.parse(
      await sh(`curl -s -X POST localhost:3001/v1/domains/${ids.dom}/connect-session -H "authorization: Bearer $KEY"`, {
        KEY: created.apiKey,
      }),
    ).connectSession.token as string;
    expect(quickstart).toContain('http://127.0.0.1:3001/widget/demo?token=cs_...');
    const widget = await fetch(`http://127.0.0.1:${port}/widget/demo?token=${token}`);
    expect(widget.status).toBe(200);
  });
});
