import { ProcessRole, loadConfig } from '@app/config';
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

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
 * The README's recipes as a user copies them (issue 20: the cluster recipe's api exited 78
 * "ENCRYPTION_KEY is required"): every process the recipe starts accepts the environment it exports.
 */
describe('README recipes', () => {
  it('the cluster recipe gives every process it starts a valid configuration', () => {
    const [block] = shBlocks('Running the cluster (several nodes)');
    const env = exportedEnv(block);
    const starts = [...block.matchAll(/^(.*?)\bnode dist\/apps\/(api|node|edge)\/src\/main\.js/gm)];
    expect(starts.map((m) => m[2]).sort()).toEqual(['api', 'edge', 'node']);
    for (const [, prefix, role] of starts) {
      // `PORT=9101 NODE_ID=node-1 node ...`: the assignments before the command (the loop's $i as 1).
      const inline = Object.fromEntries(
        [...prefix.replace(/\$i/g, '1').matchAll(/([A-Z_]+)=(\S+)/g)].map((m) => [m[1], m[2]]),
      );
      expect(() => loadConfig({ ...env, ...inline }, role as ProcessRole)).not.toThrow();
    }
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
