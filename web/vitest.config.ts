import { defineProject, mergeConfig } from 'vitest/config';
import viteConfig from './vite.config.ts';

/** The `web` test project: React components and hooks in jsdom. */
export default mergeConfig(
  viteConfig,
  defineProject({
    test: {
      name: 'web',
      environment: 'jsdom',
      include: ['src/**/*.test.{ts,tsx}'],
      setupFiles: ['src/test/setup.ts'],
      css: false,
      testTimeout: 20_000,
    },
  }),
);
