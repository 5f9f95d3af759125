import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, renameSync, rmSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';

/** The dashboard's sources and its build (`npm run build:web`), relative to the package root. */
export const WEB_ROOT = resolve('web');
export const WEB_DIST = join(WEB_ROOT, 'dist');

/** Newest modification time among the files the build reads (sources, config, dependency lock). */
function newestSourceTime(): number {
  let newest = statSync(resolve('package-lock.json')).mtimeMs;
  const visit = (path: string) => {
    const stat = statSync(path);
    if (stat.isDirectory()) {
      for (const entry of readdirSync(path)) visit(join(path, entry));
    } else if (stat.mtimeMs > newest) {
      newest = stat.mtimeMs;
    }
  };
  for (const entry of ['index.html', 'vite.config.ts', 'src', 'public']) {
    const path = join(WEB_ROOT, entry);
    if (existsSync(path)) visit(path);
  }
  return newest;
}

export function webBuildIsStale(): boolean {
  const index = join(WEB_DIST, 'index.html');
  return !existsSync(index) || statSync(index).mtimeMs < newestSourceTime();
}

/**
 * Builds web/ into web/dist when the build is missing or older than its sources, so `npm start`
 * needs no separate build command. Vite runs in a child process (the runner never loads it) and
 * writes a private directory that then replaces web/dist, so a runner serving the old build or a
 * second build started at the same time never sees a half-written one.
 */
export function ensureWebBuild(log: (line: string) => void = console.log): void {
  if (!webBuildIsStale()) return;
  log('building the dashboard (web/ → web/dist)…');
  const outDir = join(WEB_ROOT, `.dist-${process.pid}`);
  const result = spawnSync(
    process.execPath,
    [
      resolve('node_modules/vite/bin/vite.js'),
      'build',
      WEB_ROOT,
      '--outDir',
      outDir,
      '--emptyOutDir',
      '--logLevel',
      'warn',
    ],
    // Always a production build: jest sets NODE_ENV=test, and Vite would then bundle React's
    // development build (three times the size, much slower) into the web/dist `npm start` serves.
    { stdio: 'inherit', env: { ...process.env, NODE_ENV: 'production' } },
  );
  if (result.status !== 0) {
    rmSync(outDir, { recursive: true, force: true });
    throw new Error(`the dashboard build failed (exit ${result.status})`);
  }
  rmSync(WEB_DIST, { recursive: true, force: true });
  renameSync(outDir, WEB_DIST);
}
