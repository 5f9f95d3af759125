// ESM all the way (iron-webcrypto 2.x ships ESM only): jest runs with --experimental-vm-modules
// and @swc/jest strips types without converting modules to CommonJS.
export default {
  testEnvironment: 'node',
  extensionsToTreatAsEsm: ['.ts'],
  transform: {
    '^.+\\.ts$': [
      '@swc/jest',
      {
        // Import attributes stay: JSON modules are imported `with { type: 'json' }`.
        jsc: {
          parser: { syntax: 'typescript' },
          target: 'es2022',
          experimental: { keepImportAttributes: true },
        },
        module: { type: 'es6' },
      },
    ],
  },
  moduleNameMapper: { '^#shared/(.*)$': '<rootDir>/shared/$1' },
  testMatch: ['<rootDir>/tests/**/*.test.ts'],
  globalSetup: '<rootDir>/tests/support/global-setup.ts',
  globalTeardown: '<rootDir>/tests/support/global-teardown.ts',
  setupFiles: ['<rootDir>/tests/support/quiet-logs.ts'],
  setupFilesAfterEnv: ['<rootDir>/tests/support/table.ts'],
  testTimeout: 30000,
  // Two test files at a time on the 2-core CI machine: jest's default (cores - 1 = one worker) runs
  // every file in band, one after the other, while most of a file's time is spent waiting on
  // DynamoDB Local, s3rver, a runner or Chromium. The longest files start first (sequencer.js).
  maxWorkers: '100%',
  testSequencer: '<rootDir>/tests/support/sequencer.js',
};
