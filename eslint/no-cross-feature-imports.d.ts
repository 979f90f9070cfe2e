import type { ESLint } from 'eslint';

/** The `web-seams` plugin (its one rule: no-cross-feature-imports). */
declare const plugin: ESLint.Plugin;
export default plugin;
