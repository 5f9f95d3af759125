/**
 * `npm run docs:resources`: synthesizes the stack (no bundling) and rewrites the resource figures of
 * docs/scale.md from the templates (tests/infra/resource-figures.test.ts checks them).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { withSection } from './functions-doc.ts';
import { PROJECT_ROOT } from './project-root.ts';
import { FIGURES_END, FIGURES_START, resourceFigures } from './resource-figures.ts';

const path = join(PROJECT_ROOT, 'docs', 'scale.md');
const figures = resourceFigures();
writeFileSync(path, withSection(readFileSync(path, 'utf8'), FIGURES_START, FIGURES_END, figures));
console.log(`docs/scale.md: resource figures rewritten\n${figures}`);
