import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { functionSpecs } from './functions.ts';

/**
 * Largest JavaScript bundle a function may ship (what Lambda loads at cold start). 600 KiB until
 * 2026-11-26, when run-time settings, folders, tags and webhooks took `files/upload` to 608 KiB: the
 * AWS SDK is two thirds of it (docs/performance.md), and the next cut, a hand-signed Secrets Manager
 * read instead of its client (31 KiB in every bundle that reads the keys), could not be tried
 * against AWS here.
 */
export const MAX_BUNDLE_BYTES = 640 * 1024;

export interface BundleReport {
  /** Module under `functions/`. */
  handler: string;
  logicalId: string;
  /** Absolute path of the function's asset directory in the cloud assembly. */
  assetDir: string;
  /** index.mjs: the code Lambda loads. */
  codeBytes: number;
  sourceMapBytes: number;
  /** Everything under node_modules/ (bcrypt's loader and native binaries). */
  nodeModulesBytes: number;
  totalBytes: number;
  containsBcrypt: boolean;
  /** Carries sharp's native module and libvips (`node_modules/@img`). */
  containsSharp: boolean;
  /** Carries an ffmpeg binary (`node_modules/@ffmpeg-installer`): the thumbnail function only. */
  containsFfmpeg: boolean;
  /**
   * The variables the template gives the function, as written there: strings, or CloudFormation
   * references (`{"Ref": ...}`) that only a deployment resolves.
   */
  environment: Record<string, unknown>;
}

interface TemplateResource {
  Type: string;
  Metadata?: Record<string, string>;
  Properties?: { Environment?: { Variables?: Record<string, unknown> } };
}

function directoryBytes(path: string): number {
  if (!existsSync(path)) return 0;
  return readdirSync(path, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .reduce((sum, entry) => sum + statSync(join(entry.parentPath, entry.name)).size, 0);
}

function fileBytes(path: string): number {
  return existsSync(path) ? statSync(path).size : 0;
}

/**
 * The templates of a synthesized stack: its own and, depth first, its nested stacks' (their files
 * named by the `aws:asset:path` metadata of their `AWS::CloudFormation::Stack` resources).
 */
export function stackTemplates(assemblyDir: string, templateFile: string): Template[] {
  const template = JSON.parse(readFileSync(join(assemblyDir, templateFile), 'utf8')) as Template;
  const nested = Object.values(template.Resources).flatMap((resource) => {
    const file = resource.Metadata?.['aws:asset:path'];
    return resource.Type === 'AWS::CloudFormation::Stack' && file ? stackTemplates(assemblyDir, file) : [];
  });
  return [template, ...nested];
}

interface Template {
  Resources: Record<string, TemplateResource>;
}

/**
 * Measures each route function's bundle in a synthesized cloud assembly, found the way SAM finds it:
 * the `aws:asset:path` metadata of the function resource, relative to the assembly directory, in the
 * stack's template or a nested one. Functions CDK adds for its own custom resources (not ours to
 * bundle) are left out.
 */
export function bundleReports(assemblyDir: string, stackName: string): BundleReport[] {
  const handlerById = new Map(functionSpecs().map((spec) => [spec.id, spec.handler]));
  const reports: BundleReport[] = [];
  const resources = stackTemplates(assemblyDir, `${stackName}.template.json`).flatMap((template) =>
    Object.entries(template.Resources),
  );
  for (const [logicalId, resource] of resources) {
    if (resource.Type !== 'AWS::Lambda::Function') continue;
    // `<stack>[/<area>]/<function id>/Function/Resource`
    const constructPath = (resource.Metadata?.['aws:cdk:path'] ?? '').split('/');
    const handler = handlerById.get(constructPath[constructPath.length - 3] ?? '');
    if (!handler) continue;
    const assetPath = resource.Metadata?.['aws:asset:path'];
    if (!assetPath) throw new Error(`function ${logicalId} (${handler}) has no asset path`);
    const assetDir = join(assemblyDir, assetPath);
    const code = join(assetDir, 'index.mjs');
    const nodeModules = join(assetDir, 'node_modules');
    reports.push({
      handler,
      logicalId,
      assetDir,
      codeBytes: fileBytes(code),
      sourceMapBytes: fileBytes(`${code}.map`),
      nodeModulesBytes: directoryBytes(nodeModules),
      totalBytes: directoryBytes(assetDir),
      containsBcrypt:
        existsSync(join(nodeModules, '@node-rs')) ||
        (existsSync(code) && readFileSync(code, 'utf8').includes('@node-rs/bcrypt')),
      containsSharp: existsSync(join(nodeModules, '@img')),
      containsFfmpeg: existsSync(join(nodeModules, '@ffmpeg-installer')),
      environment: resource.Properties?.Environment?.Variables ?? {},
    });
  }
  return reports;
}

const kib = (bytes: number) => `${(bytes / 1024).toFixed(1)} KiB`;

export function formatBundleReports(reports: readonly BundleReport[]): string {
  const rows = [
    ['function', 'code', 'source map', 'node_modules', 'total', 'bcrypt'],
    ...reports.map((report) => [
      report.handler,
      kib(report.codeBytes),
      kib(report.sourceMapBytes),
      kib(report.nodeModulesBytes),
      kib(report.totalBytes),
      report.containsBcrypt ? 'yes' : 'no',
    ]),
  ];
  const widths =
    rows[0]?.map((_, column) => Math.max(...rows.map((row) => (row[column] ?? '').length))) ?? [];
  return rows.map((row) => row.map((cell, column) => cell.padEnd(widths[column] ?? 0)).join('  ')).join('\n');
}
