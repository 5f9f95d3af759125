import AxeBuilder from '@axe-core/playwright';
import type { Page } from 'playwright-core';

/** axe-core on the page as it is now: the serious and critical violations, described. */
export async function seriousA11yViolations(page: Page): Promise<string[]> {
  const results = await new AxeBuilder({ page }).analyze();
  return results.violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .map(
      (violation) =>
        `${violation.id} (${violation.impact}): ${violation.help} — ${violation.nodes.map((node) => `${node.html.slice(0, 160)} ${node.any[0]?.message ?? ''}`).join(', ')}`,
    );
}
