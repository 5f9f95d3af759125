/**
 * `npm run docs:functions`: synthesizes the stack with real bundling and rewrites the functions table
 * of docs/deploy.md from the route table and the measured assets (the bundle tests check it).
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { App } from 'aws-cdk-lib';
import { bundleReports } from './bundle-report.ts';
import { functionRows, markdownTable, withFunctionTable } from './functions-doc.ts';
import { PROJECT_ROOT } from './project-root.ts';
import { FileServiceStack } from './stack.ts';

const STACK = 'FileService';
const outdir = mkdtempSync(join(tmpdir(), 'file-service-docs-'));
try {
  const app = new App({
    outdir,
    context: { 'aws:cdk:enable-asset-metadata': true, 'aws:cdk:enable-path-metadata': true },
  });
  new FileServiceStack(app, STACK);
  app.synth();
  const path = join(PROJECT_ROOT, 'docs', 'deploy.md');
  const table = markdownTable(functionRows(bundleReports(outdir, STACK)));
  writeFileSync(path, withFunctionTable(readFileSync(path, 'utf8'), table));
  console.log(`docs/deploy.md: functions table rewritten\n${table}`);
} finally {
  rmSync(outdir, { recursive: true, force: true });
}
