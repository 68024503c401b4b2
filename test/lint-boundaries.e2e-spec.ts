import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { ESLint } from 'eslint';
import tseslint from 'typescript-eslint';

/** The boundary rules of eslint.boundaries.cjs, applied to imports a change might add. */
async function boundaryLinter(): Promise<{ eslint: ESLint; layers: Record<string, string[]> }> {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { boundaries, LAYERS } = require('../eslint.boundaries.cjs') as {
    boundaries: unknown[];
    LAYERS: Record<string, string[]>;
  };
  const eslint = new ESLint({
    cwd: join(__dirname, '..'),
    overrideConfigFile: true,
    overrideConfig: [{ files: ['**/*.ts'], languageOptions: { parser: tseslint.parser } }, ...(boundaries as any)],
  });
  return { eslint, layers: LAYERS };
}

async function violations(eslint: ESLint, filePath: string, source: string): Promise<string[]> {
  const [result] = await eslint.lintText(source, { filePath });
  return result.messages.map((m) => `${m.ruleId}: ${m.message}`);
}

describe('architecture boundaries (eslint.boundaries.cjs)', () => {
  let eslint: ESLint;
  let layers: Record<string, string[]>;
  beforeAll(async () => ({ eslint, layers } = await boundaryLinter()));

  it.each([
    [
      'a pure model importing persistence',
      'libs/hostname-rules/src/probe.ts',
      "import { Database } from '@app/persistence';",
    ],
    ['a model folder importing an adapter', 'libs/purchases/src/model/probe.ts', "import { x } from '@app/registrar';"],
    [
      'a pure model importing a framework',
      'libs/hostname-rules/src/probe.ts',
      "import { Injectable } from '@nestjs/common';",
    ],
    ['a pure model opening sockets', 'libs/hostname-rules/src/probe.ts', "import { connect } from 'node:net';"],
    ['the kernel importing another lib', 'libs/kernel/src/probe.ts', "import { Bus } from '@app/bus';"],
    ['the kernel doing I/O', 'libs/kernel/src/probe.ts', "import { readFileSync } from 'node:fs';"],
    ['the actor runtime importing the HTTP lib', 'libs/actors/src/probe.ts', "import { x } from '@app/http';"],
    ['an adapter importing the HTTP lib', 'libs/dns/src/probe.ts', "import { DomainError } from '@app/http';"],
    ['the kernel using any Node module', 'libs/kernel/src/probe.ts', "import { isIP } from 'node:net';"],
    ['an adapter importing a feature', 'libs/dns/src/probe.ts', "import { DomainStore } from '@app/domains';"],
    [
      'a platform lib importing a feature',
      'libs/actors/src/probe.ts',
      "import { PurchaseActor } from '@app/purchases';",
    ],
    ['a feature importing the composition', 'libs/domains/src/probe.ts', "import { apiFeatures } from '@app/runtime';"],
    [
      'an app importing another app',
      'apps/standalone/src/probe.ts',
      "import { ApiModule } from '../../api/src/api.module';",
    ],
    [
      'a lib importing an app',
      'libs/domains/src/probe.ts',
      "import { ApiModule } from '../../../apps/api/src/api.module';",
    ],
  ])('refuses %s', async (_what, filePath, source) => {
    const found = await violations(eslint, filePath, source);
    expect(found.length).toBeGreaterThan(0);
    expect(found).toEqual(found.map(() => expect.stringMatching(/^no-restricted-imports: /)));
  });

  it.each([
    ['a model importing the kernel', 'libs/hostname-rules/src/probe.ts', "import { DomainError } from '@app/kernel';"],
    ['a model parsing addresses', 'libs/hostname-rules/src/probe.ts', "import { isIP } from 'node:net';"],
    [
      'a feature importing platform and model',
      'libs/domains/src/probe.ts',
      "import { Bus } from '@app/bus';\nimport { x } from '@app/hostname-rules';",
    ],
    ['a feature importing another feature', 'libs/purchases/src/probe.ts', "import { x } from '@app/domains';"],
    ['the composition importing features', 'libs/runtime/src/probe.ts', "import { x } from '@app/domains';"],
  ])('allows %s', async (_what, filePath, source) => {
    expect(await violations(eslint, filePath, source)).toEqual([]);
  });

  it('gives every lib a layer', () => {
    const placed = new Set(Object.values(layers).flat());
    const libs = readdirSync(join(__dirname, '..', 'libs'), { withFileTypes: true })
      .filter((entry) => entry.isDirectory())
      .map((entry) => entry.name);
    expect(libs.filter((lib) => !placed.has(lib))).toEqual([]);
  });
});
