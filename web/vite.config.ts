import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

/** Absolute path of a location relative to this file (web/). */
const fromHere = (relative: string): string =>
  decodeURIComponent(new URL(relative, import.meta.url).pathname);

const API_ORIGIN = 'http://localhost:3000';

export default defineConfig({
  root: fromHere('.'),
  publicDir: fromHere('./public'),
  plugins: [react()],
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
        // Long-lived vendor chunks, so a deploy of app code does not invalidate the libraries.
        codeSplitting: {
          groups: [
            {
              name: 'react',
              test: /node_modules[\\/](react|react-dom|scheduler|react-router)[\\/]/,
              priority: 30,
            },
            {
              name: 'mui',
              test: /node_modules[\\/](@mui|@emotion|stylis|@popperjs|react-transition-group|clsx|prop-types|react-is|hoist-non-react-statics)[\\/]/,
              priority: 20,
            },
            {
              // Loaded on demand by lib/authClient.ts once /api/config names a user pool.
              name: 'amplify',
              test: /node_modules[\\/](aws-amplify|@aws-amplify|@aws-crypto|@aws-sdk|@smithy)[\\/]/,
              priority: 25,
            },
            { name: 'vendor', test: /node_modules[\\/]/, priority: 10 },
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
