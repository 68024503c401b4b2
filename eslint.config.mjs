import js from '@eslint/js';
import prettier from 'eslint-config-prettier';
import tseslint from 'typescript-eslint';
import boundariesConfig from './eslint.boundaries.cjs';

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', 'data/**', 'coverage/**', '*.js', '*.cjs', '**/*.mjs', 'bench/**/*.js'] },
  js.configs.recommended,
  // Generated files carry one blanket `eslint-disable` banner whether or not a rule would fire.
  { files: ['libs/sdk/src/generated/**'], linterOptions: { reportUnusedDisableDirectives: 'off' } },
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/switch-exhaustiveness-check': 'error',
      '@typescript-eslint/no-extraneous-class': 'off',
      '@typescript-eslint/require-await': 'off',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  {
    // The kernel is the vocabulary every lib shares: plain TypeScript, so it depends on nothing.
    files: ['libs/kernel/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['@app/*', '@nestjs/*', 'fastify', '@fastify/*', 'pg', 'nats', '@mikro-orm/*', 'node:*'],
              message: 'libs/kernel imports no other lib, framework, transport, database or Node I/O.',
            },
          ],
        },
      ],
    },
  },
  {
    // An actor command names its kind through a declared protocol, so its command and reply are
    // checked; the string form of `ask` is for test fixtures and benchmarks (the counter actor).
    files: ['libs/**/*.ts', 'apps/**/*.ts'],
    ignores: ['**/*.spec.ts'],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector: "CallExpression[callee.property.name='ask'][arguments.0.type='Literal']",
          message: 'Send actor commands through a declared protocol (defineProtocol), not a kind string.',
        },
      ],
    },
  },
  {
    files: ['test/**/*.ts', '**/*.spec.ts', 'bench/**/*.ts'],
    rules: {
      '@typescript-eslint/no-explicit-any': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
      '@typescript-eslint/unbound-method': 'off',
    },
  },
  ...boundariesConfig.boundaries,
  prettier,
);
