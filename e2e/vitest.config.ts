import { defineConfig } from 'vitest/config';

/** Browser journeys: `npm run e2e`. One `npm start` for the whole run; one browser per file. */
export default defineConfig({
  test: {
    name: 'e2e',
    root: import.meta.dirname,
    include: ['**/*.e2e.ts'],
    globalSetup: ['./global-setup.ts'],
    testTimeout: 60_000,
    hookTimeout: 300_000,
    fileParallelism: false,
  },
});
