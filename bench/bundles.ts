import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { App } from 'aws-cdk-lib';
import { type BundleReport, bundleReports } from '../infra/bundle-report.ts';
import { FileServiceStack } from '../infra/stack.ts';

const STACK = 'FileService';

export interface BundleFigures extends BundleReport {
  /** The largest contributors to index.mjs, by package (or source file outside node_modules). */
  largestInputs: { input: string; bytes: number }[];
}

interface Metafile {
  outputs: Record<string, { inputs: Record<string, { bytesInOutput: number }> }>;
}

/** `node_modules/@aws-sdk/core/dist-es/x.js` → `@aws-sdk/core`; own files stay as they are. */
function packageOf(input: string): string {
  const parts = input.split('node_modules/');
  if (parts.length < 2) return input;
  const path = (parts.at(-1) as string).split('/');
  return path[0]?.startsWith('@') ? `${path[0]}/${path[1]}` : (path[0] as string);
}

function largestInputs(assetDir: string, count: number): BundleFigures['largestInputs'] {
  const meta = JSON.parse(readFileSync(join(assetDir, 'index.meta.json'), 'utf8')) as Metafile;
  const output = Object.entries(meta.outputs).find(([name]) => name.endsWith('index.mjs'))?.[1];
  if (!output) throw new Error(`no index.mjs in the metafile of ${assetDir}`);
  const bytesByInput = new Map<string, number>();
  for (const [input, { bytesInOutput }] of Object.entries(output.inputs)) {
    const key = packageOf(input);
    bytesByInput.set(key, (bytesByInput.get(key) ?? 0) + bytesInOutput);
  }
  return [...bytesByInput]
    .map(([input, bytes]) => ({ input, bytes }))
    .sort((a, b) => b.bytes - a.bytes)
    .slice(0, count);
}

/**
 * Synthesizes the real stack once, bundling every function exactly as a deploy does (the options
 * live in ServiceFunction) plus esbuild's metafile, and measures the assets in the cloud assembly.
 */
export function synthBundles(): { assemblyDir: string; bundles: BundleFigures[] } {
  const assemblyDir = mkdtempSync(join(tmpdir(), 'file-service-bench-'));
  const app = new App({
    outdir: assemblyDir,
    context: { 'aws:cdk:enable-asset-metadata': true, 'aws:cdk:enable-path-metadata': true },
  });
  new FileServiceStack(app, STACK, { bundleMetafile: true });
  app.synth();
  const bundles = bundleReports(assemblyDir, STACK).map((report) => ({
    ...report,
    // The metafile is the benchmark's, not part of what a deploy uploads.
    totalBytes: report.totalBytes - readFileSync(join(report.assetDir, 'index.meta.json')).length,
    largestInputs: largestInputs(report.assetDir, 5),
  }));
  return { assemblyDir, bundles };
}
