'use strict';
/**
 * Four projects: `unit` (src, *.spec.ts: pure logic, no I/O), `integration` (test/integration:
 * repositories' SQL straight against PostgreSQL, and the architecture's boundary rules), `e2e`
 * (test, *.e2e-spec.ts: the real app on real PostgreSQL and Redis, one fresh database per test
 * file) and `chaos` (test/chaos: real processes, killed Redis/PostgreSQL/workers, SIGTERM,
 * scale-out, fuzzing). `npm test` runs unit, integration and e2e; `npm run test:chaos` runs chaos;
 * `.ci/run` runs both.
 */
const shared = {
  testEnvironment: 'node',
  transform: {
    '^.+\\.ts$': ['ts-jest', { tsconfig: '<rootDir>/tsconfig.json' }],
    '^.+\\.m?js$': '<rootDir>/test/support/esm-to-cjs.transformer.js',
  },
  // ES-module packages in node_modules must be compiled too (see the transformer).
  transformIgnorePatterns: [],
  moduleFileExtensions: ['ts', 'js', 'mjs', 'json'],
};

module.exports = {
  maxWorkers: 2,
  testTimeout: 30_000,
  projects: [
    { ...shared, displayName: 'unit', testMatch: ['<rootDir>/src/**/*.spec.ts'] },
    {
      ...shared,
      displayName: 'integration',
      testMatch: ['<rootDir>/test/integration/*.spec.ts'],
      globalSetup: '<rootDir>/test/support/global-setup.ts',
      globalTeardown: '<rootDir>/test/support/global-teardown.ts',
    },
    {
      ...shared,
      displayName: 'e2e',
      testMatch: ['<rootDir>/test/*.e2e-spec.ts'],
      globalSetup: '<rootDir>/test/support/global-setup.ts',
      globalTeardown: '<rootDir>/test/support/global-teardown.ts',
    },
    {
      ...shared,
      displayName: 'chaos',
      testMatch: ['<rootDir>/test/chaos/*.e2e-spec.ts'],
      globalSetup: '<rootDir>/test/support/global-setup.ts',
      globalTeardown: '<rootDir>/test/support/global-teardown.ts',
      testTimeout: 180_000,
    },
  ],
};
