import react from '@vitejs/plugin-react';
import path from 'node:path';
import { defineConfig } from 'vite';
import { entryGraph, WEB_SRC } from '../infra/lib/web-graph.ts';

/** Absolute path of a location relative to this file (web/). */
const fromHere = (relative: string): string =>
  decodeURIComponent(new URL(relative, import.meta.url).pathname);

const API_ORIGIN = 'http://localhost:3000';

/**
 * The app's shell: the modules boot.tsx reaches statically (every visit runs them). They and what
 * they import go in one chunk; left to the automatic split they become ~40 small chunks shared
 * with the pages, each a request of its own before the first page can render.
 */
const SHELL = new Set(
  entryGraph()
    .files.filter((file) => file !== 'boot.tsx')
    .map((file) => path.join(WEB_SRC, file)),
);

export default defineConfig({
  root: fromHere('.'),
  publicDir: fromHere('./public'),
  plugins: [react()],
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
              name: 'shell',
              test: (id: string) => SHELL.has(id.split('?')[0] ?? id),
              priority: 20,
            },
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
