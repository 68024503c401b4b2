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
  // Stops what a file's modules started in Node's shared performance hooks (the file's heap stays otherwise).
  testEnvironment: '<rootDir>/test/support/process-hooks-environment.mjs',
};

module.exports = {
  testTimeout: 120_000,
  // Files are independent (own database, NATS prefix, free ports) and often wait on processes and
  // the network: four workers keep two cores about 85% busy (jest 339 s; three left them idler).
  // More made files time out under load before. JEST_MAX_WORKERS overrides.
  maxWorkers: Number(process.env.JEST_MAX_WORKERS ?? 4),
  workerIdleMemoryLimit: process.env.JEST_WORKER_MEMORY ?? '600MB',
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
      // Names a file that leaves a socket, timer or process running (what keeps a Jest worker from exiting).
      testEnvironment: '<rootDir>/test/support/handle-report-environment.mjs',
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
