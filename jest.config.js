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
  // One test file at a time (jest's default on the 2-core CI machine): two at once share one
  // DynamoDB Local and both cores, and the clean-clone run of 21:24 took longer, with 30 s test
  // timeouts in files-list while tags-cost and folders-cost seeded beside it.
};
