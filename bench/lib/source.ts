import { transformFileSync } from '@swc/core';
import { Module, createRequire } from 'node:module';
import { resolve } from 'node:path';
import { REPO_ROOT } from './paths';

/**
 * Loads a TypeScript file of the repository that `npm run build` does not compile (test/support is
 * run from source by jest), compiled by SWC in memory; its relative `.ts` imports load the same way.
 * For self-contained helpers (no `@app/*` imports), e.g. `requireSource('test/support/dns-server')`.
 * Compiled benchmarks only `import type` from such files and take the values from here.
 */
export function requireSource<T>(path: string): T {
  const extensions = (Module as unknown as { _extensions: Record<string, (m: unknown, file: string) => void> })
    ._extensions;
  extensions['.ts'] ??= (mod, file) => {
    const { code } = transformFileSync(file, {
      swcrc: false,
      sourceMaps: 'inline',
      module: { type: 'commonjs' },
      jsc: { target: 'es2022', parser: { syntax: 'typescript', decorators: true } },
    });
    (mod as { _compile(code: string, file: string): void })._compile(code, file);
  };
  return createRequire(resolve(REPO_ROOT, 'package.json'))(resolve(REPO_ROOT, `${path}.ts`)) as T;
}
