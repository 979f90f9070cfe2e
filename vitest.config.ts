import { defineConfig } from 'vitest/config';

/**
 * Test projects:
 * - unit: pure code of shared/, functions/ and infra/ (no emulators).
 * - integration: *.int.test.ts, through the local gateway against the twin (DynamoDB Local in
 *   memory, guarded s3rver, workflow runner, WebSocket gateway), started once by the global setup.
 * - web: React components in jsdom.
 */
export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'unit',
          environment: 'node',
          env: { POWERTOOLS_LOG_LEVEL: 'SILENT' },
          include: [
            'shared/**/*.test.ts',
            'functions/**/*.test.ts',
            'infra/**/*.test.ts',
            'bench/**/*.test.ts',
          ],
          exclude: ['**/*.int.test.ts', '**/node_modules/**'],
          testTimeout: 60_000,
          hookTimeout: 60_000,
        },
      },
      {
        test: {
          name: 'integration',
          environment: 'node',
          env: { POWERTOOLS_LOG_LEVEL: 'SILENT' },
          include: ['**/*.int.test.ts'],
          exclude: ['**/node_modules/**', 'web/**'],
          globalSetup: ['infra/local/test/global-setup.ts'],
          testTimeout: 60_000,
          hookTimeout: 120_000,
        },
      },
      'web/vitest.config.ts',
    ],
  },
});
