import react from '@vitejs/plugin-react';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig, type Plugin } from 'vite';
import { entryGraph, WEB_SRC } from '../infra/lib/web-graph.ts';

/** Absolute path of a location relative to this file (web/). */
const fromHere = (relative: string): string =>
  decodeURIComponent(new URL(relative, import.meta.url).pathname);

const API_ORIGIN = 'http://localhost:3000';

/**
 * zod and the shared schemas: loaded with the first validated call of any page. The payment
 * schemas are only the payments feature's (cards, onboarding): they stay in its chunks, off the
 * first visit.
 */
const SCHEMAS = /([\\/]node_modules[\\/]zod[\\/])|([\\/]shared[\\/]schemas[\\/](?!payments\.))/;

/**
 * What `module` (relative to web/src) reaches statically: its source files as absolute paths
 * (with or without the module itself), and the packages it imports.
 */
function reachedBy(module: string, { itself }: { itself: boolean }) {
  const graph = entryGraph(path.join(WEB_SRC, module));
  const files = graph.files
    .filter((file) => itself || file !== module)
    .map((file) => path.join(WEB_SRC, file));
  return { files, packages: graph.packages };
}

const ENTRY = new Set(reachedBy('main.tsx', { itself: false }).files);

/**
 * The app's shell: the modules boot.tsx reaches statically (every visit runs them). They and what
 * they import go in one chunk; left to the automatic split they become ~40 small chunks shared
 * with the pages, each a request of its own before the first page can render.
 */
const SHELL = new Set(
  // What the entry (main.tsx) imports itself has a chunk of its own (`start`): in the shell, the
  // entry would wait for the whole shell before running.
  reachedBy('boot.tsx', { itself: false }).files.filter((file) => !ENTRY.has(file)),
);

/** The file a package import resolves to (as Vite resolves it: the `import` condition). */
function resolvePackage(specifier: string): string | null {
  try {
    return fileURLToPath(import.meta.resolve(specifier));
  } catch {
    return null;
  }
}

const claimed = new Set([...SHELL, ...ENTRY]);

/**
 * The files `modules` reach, their packages included, that no earlier group claimed (zod and the
 * schemas excepted: validation loads them on every visit, in their own chunk); claims them. A
 * group takes in its modules' dependencies too, but a module's own package imports would
 * otherwise land in whichever later group reaches them as well.
 */
function claim(modules: string[], { itself }: { itself: boolean }): Set<string> {
  const files = new Set<string>();
  for (const module of modules) {
    const graph = reachedBy(module, { itself });
    const reached = [
      ...graph.files,
      ...graph.packages.map(resolvePackage).filter((file) => file !== null),
    ];
    for (const file of reached) {
      if (!claimed.has(file) && !SCHEMAS.test(file)) files.add(file);
    }
  }
  for (const file of files) claimed.add(file);
  return files;
}

/**
 * The popups and banners the shell loads on demand (lib/lazyOverlay.tsx): one chunk for the MUI
 * machinery only they use (modal, menu, snackbar, drawer), instead of a dozen small ones.
 */
const OVERLAYS = [
  'components/OfflineBanner.tsx',
  'components/PermissionDialog.tsx',
  'components/ToastSnackbar.tsx',
  'features/accounts/components/AccountMenuPopup.tsx',
  'app/layouts/NavDrawer.tsx',
];

/**
 * The public pages a first visit opens, most visited first. Each gets one chunk besides its
 * module's (which keeps its own: Vite's manifest names it, and the build finds a page's chunks
 * through it) with what it reaches that the shell, the overlays and an earlier page do not. Split
 * automatically, a profile needed 28 chunks of a few KiB: each a request, six at a time over
 * HTTP/1.1. A page that shares a component with an earlier one loads that page's chunk too; the
 * first (home) loads only its own.
 */
const PUBLIC_PAGES = [
  'app/HomeRoute.tsx',
  'features/sellers/components/SellersPage.tsx',
  'app/ProfileRoute.tsx',
  'app/ItemRoute.tsx',
  'app/CollectionRoute.tsx',
];
/** Claims a page's group (see PUBLIC_PAGES). */
function pageGroup(page: string, priority: number) {
  const files = claim([page], { itself: false });
  return {
    name: `${path.basename(page, '.tsx')}.parts`,
    test: (id: string) => files.has(id.split('?')[0] ?? id),
    priority,
  };
}

/*
 * The public pages claim first, in order, so none of them loads the overlays' chunk before it is
 * live; the overlays then claim what only they use (modal, menu, snackbar, drawer) and import the
 * rest from the pages' chunks (a page's chunk at idle time, when the page has long been live).
 */
const [firstPages, otherPages] = [PUBLIC_PAGES.slice(0, 3), PUBLIC_PAGES.slice(3)];
const firstPageGroups = firstPages.map((page, index) => pageGroup(page, 11 - index));
const overlayFiles = claim(OVERLAYS, { itself: true });
const otherPageGroups = otherPages.map((page, index) => pageGroup(page, 7 - index));

/**
 * Material UI's `createTheme()` chooses between `createThemeNoVars` and `createThemeWithVars` at
 * run time (its `cssVariables` option), so a bundler keeps both: the CSS-variables half (~4 KiB
 * gzip, with its helpers) is on every page although this app's theme (app/theme.ts) uses no CSS
 * theme variables. MUI's own default theme sidesteps it the same way (it imports the no-vars
 * builder directly), but `createThemeNoVars` is not a public export. So `createTheme`'s import of
 * the CSS-variables builder resolves to app/noCssThemeVariables.ts, which throws if a theme ever
 * asks for CSS variables. The build fails if MUI's createTheme no longer imports it by that name
 * (the redirect would silently stop working).
 */
function themeWithoutCssVariables(): Plugin {
  const createTheme = /[\\/]@mui[\\/]material[\\/]styles[\\/]createTheme\.mjs$/;
  let redirected = false;
  let createThemeSeen = false;
  return {
    name: 'theme-without-css-variables',
    enforce: 'pre',
    apply: 'build',
    resolveId(source, importer) {
      if (importer === undefined || !createTheme.test(importer)) return null;
      createThemeSeen = true;
      if (source !== './createThemeWithVars.mjs') return null;
      redirected = true;
      return fromHere('./src/app/noCssThemeVariables.ts');
    },
    buildEnd(error) {
      if (!error && createThemeSeen && !redirected) {
        throw new Error(
          "@mui/material's createTheme no longer imports ./createThemeWithVars.mjs: update themeWithoutCssVariables in web/vite.config.ts",
        );
      }
    },
  };
}

export default defineConfig({
  root: fromHere('.'),
  publicDir: fromHere('./public'),
  plugins: [react(), themeWithoutCssVariables()],
  define: { __BUILD_YEAR__: JSON.stringify(new Date().getFullYear()) },
  resolve: {
    alias: { '@shared': fromHere('../shared') },
  },
  build: {
    outDir: fromHere('../dist/web'),
    emptyOutDir: true,
    sourcemap: true,
    target: 'es2022',
    rolldownOptions: {
      output: {
        // React and the router are in every page's entry and change rarely: one long-lived chunk.
        // Everything else is split by use, so a page's chunk carries only what it needs (a
        // library-wide group, e.g. all of MUI, would put every page's components in the entry).
        codeSplitting: {
          groups: [
            {
              name: 'react',
              test: /node_modules[\\/](react|react-dom|scheduler|react-router)[\\/]/,
              priority: 30,
            },
            {
              // The entry's own imports (app/earlyStart.ts and what it needs): a few KiB that run
              // before the rest of the app has arrived. A group includes its modules'
              // dependencies, so the shell cannot hold them.
              name: 'start',
              test: (id: string) => ENTRY.has(id.split('?')[0] ?? id),
              priority: 40,
            },
            {
              name: 'shell',
              test: (id: string) => SHELL.has(id.split('?')[0] ?? id),
              priority: 20,
            },
            {
              // Money and its formatting: the public pages show prices, and the schemas import
              // the currencies too. In its own small chunk, or the schemas group (which takes its
              // modules' dependencies) would carry it and every price would load zod.
              name: 'money',
              test: /[\\/]shared[\\/](money|format)\.ts$/,
              priority: 16,
            },
            {
              name: 'schemas',
              test: SCHEMAS,
              priority: 15,
            },
            ...firstPageGroups,
            {
              name: 'overlays',
              test: (id: string) => overlayFiles.has(id.split('?')[0] ?? id),
              priority: 8.5,
            },
            ...otherPageGroups,
            {
              // Loaded on demand by lib/authClient.ts: to restore a stored session, log in or out.
              name: 'amplify',
              test: /node_modules[\\/](aws-amplify|@aws-amplify|@aws-crypto|@aws-sdk|@smithy)[\\/]/,
              priority: 25,
            },
          ],
        },
      },
    },
  },
  server: {
    port: 5173,
    proxy: {
      '/api': { target: API_ORIGIN, changeOrigin: true },
      '/media': { target: API_ORIGIN, changeOrigin: true },
      '/dev': { target: API_ORIGIN, changeOrigin: true },
    },
  },
  preview: { port: 4173 },
});
