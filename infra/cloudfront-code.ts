import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { PROJECT_ROOT } from './project-root.ts';

const CLOUDFRONT_FUNCTIONS = join(PROJECT_ROOT, 'infra', 'cloudfront');
const PRELUDE = 'canonical-host.js';
const UNSET = "var CANONICAL_HOST = '';";

/**
 * A viewer-request function's code as the distribution runs it: the canonical-host prelude (with
 * the custom domain, lowercased, or none) and then the function file. CloudFront Functions are one
 * file each, with no imports, so the one redirect rule is put in front of each.
 */
export function cloudfrontCode(file: string, canonicalHost?: string): string {
  const prelude = readFileSync(join(CLOUDFRONT_FUNCTIONS, PRELUDE), 'utf8');
  if (!prelude.includes(UNSET)) throw new Error(`${PRELUDE} must declare ${UNSET}`);
  const host = JSON.stringify((canonicalHost ?? '').toLowerCase()).replaceAll('"', "'");
  const code = readFileSync(join(CLOUDFRONT_FUNCTIONS, file), 'utf8');
  return `${prelude.replace(UNSET, `var CANONICAL_HOST = ${host};`)}\n${code}`;
}
