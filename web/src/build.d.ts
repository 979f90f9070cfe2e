/** The year the web build was made (vite.config.ts `define`): the year prerendered pages show. */
declare const __BUILD_YEAR__: number;
