'use strict';
/**
 * Two projects: `unit` (src, *.spec.ts: pure logic, no I/O) and `e2e` (test, *.e2e-spec.ts:
 * the real app on real PostgreSQL and Redis, one fresh database per test file).
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
      displayName: 'e2e',
      testMatch: ['<rootDir>/test/**/*.e2e-spec.ts'],
      globalSetup: '<rootDir>/test/support/global-setup.ts',
    },
  ],
};
