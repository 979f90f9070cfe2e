import { defineConfig } from 'vitest/config';

/**
 * Test projects:
 * - shared, functions, infra: unit tests of each (no emulators).
 * - integration: *.int.test.ts, through the local gateway against the twin (DynamoDB Local in
 *   memory, guarded s3rver, workflow runner, WebSocket gateway), started once by the global setup.
 * - web: React components in jsdom.
 */
export default defineConfig({
  test: {
    projects: [
      ...(
        [
          ['shared', ['shared/**/*.test.ts', 'bench/**/*.test.ts', 'eslint/**/*.test.ts']],
          ['functions', ['functions/**/*.test.ts']],
          ['infra', ['infra/**/*.test.ts']],
        ] as const
      ).map(([name, include]) => ({
        test: {
          name,
          environment: 'node' as const,
          env: { POWERTOOLS_LOG_LEVEL: 'SILENT' },
          include: [...include],
          exclude: ['**/*.int.test.ts', '**/node_modules/**'],
          testTimeout: 60_000,
          hookTimeout: 60_000,
        },
      })),
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
