/** Unit specs live beside the code; e2e and integration specs in test/. */
const swc = [
  '@swc/jest',
  {
    jsc: {
      target: 'es2022',
      parser: { syntax: 'typescript', decorators: true },
      transform: { legacyDecorator: true, decoratorMetadata: true, useDefineForClassFields: false },
      keepClassNames: true,
    },
  },
];
const ESM_ONLY = ['@apidevtools/json-schema-ref-parser', 'openid-client', 'oauth4webapi', 'jose'].join('|');
const shared = {
  transform: { '^.+\\.ts$': swc },
  moduleNameMapper: { '^@app/(.*)$': '<rootDir>/libs/$1/src', '^@test/support$': '<rootDir>/test/support' },
  testEnvironment: 'node',
};

module.exports = {
  testTimeout: 120_000,
  // Files are independent (own database, NATS prefix, free ports) and often wait on processes and
  // the network: four workers keep two cores about 85% busy (jest 339 s; three left them idler).
  // More made files time out under load before. JEST_MAX_WORKERS overrides.
  maxWorkers: Number(process.env.JEST_MAX_WORKERS ?? 4),
  // A worker's heap grows ~20 MB per file (every file loads the app anew) to ~1.1 GB by the end; a
  // worker that large takes 430-580 ms to leave once told to (freeing 1.5-1.9 GB of RSS, four at
  // once), past the 500 ms Jest waits before it kills it and prints "A worker process has failed to
  // exit gracefully". Each worker exited with code 0 within 13 ms of the end message: no open handle.
  // A worker over this heap after a file is replaced before the next (heaps stayed at 230-680 MB).
  workerIdleMemoryLimit: '700MB',
  // Longest files first even on a fresh clone (test/durations.json fills in what Jest has not timed).
  testSequencer: '<rootDir>/test/support/test-sequencer.mjs',
  // Test streams an earlier run left on the shared NATS server go (test/support/global-setup.mjs).
  globalSetup: '<rootDir>/test/support/global-setup.mjs',
  projects: [
    { ...shared, displayName: 'unit', testMatch: ['<rootDir>/libs/**/*.spec.ts', '<rootDir>/apps/**/*.spec.ts'] },
    {
      ...shared,
      displayName: 'e2e',
      testMatch: ['<rootDir>/test/**/*.e2e-spec.ts'],
      // Fails a test whose HTTP exchanges the OpenAPI document does not describe (test/support/openapi-exchanges.ts).
      setupFilesAfterEnv: ['<rootDir>/test/support/openapi-jest-setup.ts'],
      // ESM-only packages compiled to CommonJS for Jest: the ref parser openapi-backend (the exchange
      // check) requires, and openid-client with its dependencies (the console's single sign-on; plain
      // Node 20 loads them with require(esm)).
      transform: { ...shared.transform, [`/node_modules/(${ESM_ONLY})/.+\\.js$`]: swc },
      transformIgnorePatterns: [`/node_modules/(?!(${ESM_ONLY})/)`],
      slowTestThreshold: 30,
    },
  ],
};
