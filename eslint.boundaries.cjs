// Architecture boundaries, enforced by `npm run lint` (and proven by test/lint-boundaries.e2e-spec.ts).
// CommonJS so that both eslint.config.mjs and the jest test can load it.
// Every lib sits in one layer; a layer may import its own layer and the layers below it, never above:
//
//   kernel      shared vocabulary: errors, clock, cache, hostnames, edge messages (no framework, no I/O)
//   model       pure state machines and rules (libs/hostname-rules, libs/*/src/model): kernel only, no I/O
//   platform    transport and runtime: config, bus, persistence, http, actors, auth, metrics, ...
//   adapters    outside systems: DNS, registrars, payments
//   features    what the service does: domains, purchases, webhooks, console, ...
//   composition what a process runs: libs/runtime and apps/* (nothing imports an app)

/** Which layer each lib is in. A lib missing here fails the boundary test, so a new lib gets a place. */
const LAYERS = {
  kernel: ['kernel'],
  model: ['hostname-rules'],
  platform: [
    'config',
    'bus',
    'persistence',
    'http',
    'crypto',
    'metrics',
    'health',
    'actors',
    'background',
    'auth',
    'api-keys',
    'limits',
    'sdk',
  ],
  adapters: ['dns', 'registrar', 'payments'],
  features: [
    'admin',
    'certificates',
    'challenge-dns',
    'connect',
    'connect-sessions',
    'console',
    'dns-apply',
    'domains',
    'edge',
    'oauth',
    'openapi',
    'projects',
    'purchases',
    'tools',
    'webhooks',
    'widget',
    'workspaces',
  ],
  composition: ['runtime'],
};

/** Modules that do I/O or bring a framework: a pure lib imports none of them. */
const IO_MODULES = [
  '@nestjs/*',
  '@mikro-orm/*',
  'pg',
  'nats',
  'fastify',
  '@fastify/*',
  'undici',
  'node:fs',
  'node:fs/*',
  'node:dns',
  'node:dns/*',
  'node:http',
  'node:https',
  'node:http2',
  'node:tls',
  'node:dgram',
  'node:child_process',
];
/** The same core modules without the `node:` prefix, matched by exact name (a pattern `dns` would also match `@app/dns`). */
const BARE_IO = ['fs', 'fs/promises', 'dns', 'dns/promises', 'http', 'https', 'http2', 'tls', 'dgram', 'child_process'];
/** `node:net` is allowed in pure code for its address parsing (`isIP`), not for its sockets. */
const NET_IO = { name: 'node:net', importNames: ['connect', 'createConnection', 'createServer', 'Socket', 'Server'] };

const ORDER = ['kernel', 'model', 'platform', 'adapters', 'features', 'composition'];
const libsAbove = (layer) =>
  ORDER.slice(ORDER.indexOf(layer) + 1).flatMap((above) => LAYERS[above].map((lib) => `@app/${lib}`));
const libFiles = (libs) => libs.map((lib) => `libs/${lib}/src/**/*.ts`);
const APPS = { group: ['**/apps/**', 'apps/*'], message: 'Nothing imports an app: apps/* only compose libs.' };
const MODEL_FILES = ['libs/*/src/model/**/*.ts'];

/** Libs that are not about HTTP: they speak in kernel errors and never import the HTTP transport lib. */
const NOT_HTTP = ['actors', 'bus', 'persistence', 'config', 'crypto', 'background', 'dns', 'registrar', 'payments'];

function restrict(files, { libs = [], pure = false, noHttp = false, extra = [], why }) {
  const patterns = [APPS];
  if (libs.length) patterns.push({ group: libs, message: why });
  if (pure) patterns.push({ group: IO_MODULES, message: 'Pure code does no I/O and uses no framework.' });
  if (noHttp) patterns.push({ group: ['@app/http'], message: 'Not an HTTP lib: errors come from @app/kernel.' });
  patterns.push(...extra);
  const paths = pure
    ? [
        { ...NET_IO, message: 'Pure code opens no sockets.' },
        ...BARE_IO.map((name) => ({ name, message: 'Pure code does no I/O and uses no framework.' })),
      ]
    : [];
  return { files, rules: { 'no-restricted-imports': ['error', { paths, patterns }] } };
}

// Later blocks win for a file matched by several, so the most specific (model folders) comes last.
const boundaries = [
  {
    files: ['apps/*/src/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['../../*/src/**', '**/apps/**'],
              message: 'An app imports libs, not another app: what several apps run belongs in libs/runtime.',
            },
          ],
        },
      ],
    },
  },
  restrict(libFiles(LAYERS.composition), {}),
  restrict(libFiles(LAYERS.platform.filter((lib) => !NOT_HTTP.includes(lib))), {
    libs: libsAbove('platform'),
    why: 'Platform libs never import adapters, features or the composition.',
  }),
  restrict(libFiles(LAYERS.platform.filter((lib) => NOT_HTTP.includes(lib))), {
    libs: libsAbove('platform'),
    noHttp: true,
    why: 'Platform libs never import adapters, features or the composition.',
  }),
  restrict(libFiles(LAYERS.adapters), {
    libs: libsAbove('adapters'),
    noHttp: true,
    why: 'Adapters never import features or the composition.',
  }),
  restrict(libFiles(LAYERS.features), {
    libs: libsAbove('features'),
    why: 'Features never import the composition (libs/runtime, apps).',
  }),
  restrict(libFiles(LAYERS.kernel), {
    libs: ['@app/*'],
    pure: true,
    extra: [{ group: ['node:*'], message: 'The kernel is plain TypeScript: no Node modules either.' }],
    why: 'The kernel imports no other lib: everything else builds on it.',
  }),
  restrict([...libFiles(LAYERS.model), ...MODEL_FILES], {
    libs: ['@app/*', '!@app/kernel', '!@app/hostname-rules'],
    pure: true,
    why: 'A pure model imports only the kernel and other models.',
  }),
].map((block) => ({ ...block, ignores: ['**/*.spec.ts'] }));

module.exports = { LAYERS, boundaries };
