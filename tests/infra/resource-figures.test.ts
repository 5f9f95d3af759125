import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { withSection } from '../../infra/functions-doc.ts';
import { PROJECT_ROOT } from '../../infra/project-root.ts';
import { FIGURES_END, FIGURES_START, resourceFigures } from '../../infra/resource-figures.ts';

// The resource counts the docs give come from the templates (`npm run docs:resources`): a change that
// adds or removes resources without regenerating them fails here.
test('docs/scale.md gives the resource figures of the templates as they are now', () => {
  const document = readFileSync(join(PROJECT_ROOT, 'docs', 'scale.md'), 'utf8');
  expect(document).toBe(withSection(document, FIGURES_START, FIGURES_END, resourceFigures()));
});

test('no other document states a whole-stack resource count by hand', () => {
  for (const file of ['README.md', 'docs/deploy.md', 'docs/operations.md', 'docs/architecture.md']) {
    const text = readFileSync(join(PROJECT_ROOT, file), 'utf8');
    expect(text).not.toMatch(/\b\d{3} (CloudFormation )?resources\b/);
  }
});
