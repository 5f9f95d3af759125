// `npm run bench:web [-- --quick] [-- --check]`: the dashboard's budgets on their own (`npm run bench`
// measures them too, with everything else): prints the figures and the budgets, and with --check
// exits non-zero when one is broken. See docs/performance.md.
import { table } from './stats.ts';
import { checkWebBudgets, measureWeb, webReport } from './web.ts';

const args = new Set(process.argv.slice(2));
const figures = await measureWeb(args.has('--quick') ? 3 : 5);
const budgets = checkWebBudgets(figures);
console.log(`${webReport(figures)}\n\nBudgets\n`);
console.log(
  table([
    ['', 'budget', 'limit', 'measured'],
    ...budgets.map((item) => [item.ok ? 'ok' : 'BROKEN', item.budget, item.limit, item.measured]),
  ]),
);
if (args.has('--check') && budgets.some((item) => !item.ok)) process.exitCode = 1;
