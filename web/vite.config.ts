import { defineConfig } from 'vite';

/**
 * `npm run build:web` (and `npm start`, when web/dist is stale) builds into web/dist; the local
 * runner serves it, the stack deploys it. `vite web` during development proxies the API to a runner
 * on port 3000, so the app always talks to its own origin, as it does when deployed.
 */
const runner = process.env.API_URL ?? 'http://127.0.0.1:3000';

export default defineConfig({
  oxc: { jsx: { runtime: 'automatic' } },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    target: 'es2022',
    // React, Mantine and the router are one entry chunk by design; its size is watched by `bench:web`.
    chunkSizeWarningLimit: 800,
    rolldownOptions: {
      onwarn(warning, warn) {
        // Mantine marks its modules "use client" for React Server Components; meaningless here.
        if (warning.code !== 'MODULE_LEVEL_DIRECTIVE') warn(warning);
      },
    },
  },
  server: { proxy: { '/api': runner, '/raw': runner } },
});
