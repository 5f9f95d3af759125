// `npm run bench:view [-- --quick] [-- --check]`: the view page's two budgets on their own (`npm run
// bench` checks them too, with everything else, in about ten minutes): the same fixtures and the same
// measurement (`measureLatency`: sequential requests to the handler in this process, after a
// warm-up), for the image page alone. Prints the figures with the load average they were measured
// under, and with --check exits non-zero when a budget is broken. See docs/performance.md.
import { loadavg } from 'node:os';
import { startBenchServices } from './services.ts';
import { table } from './stats.ts';

const args = new Set(process.argv.slice(2));
const services = await startBenchServices((what) => console.error(what));
try {
  // Handler modules read the environment at import, so everything that loads them comes now.
  const { BUDGETS, checkViewBudgets } = await import('./budgets.ts');
  const { benchScenarios } = await import('./scenarios.ts');
  const { measureLatency } = await import('./latency.ts');
  console.error('creating fixtures');
  const { scenarios } = await benchScenarios();
  const loadAtStart = loadavg()[0] as number;
  const requests = args.has('--quick') ? 30 : 1000;
  console.error(`measuring ${BUDGETS.viewScenario}: ${requests} requests`);
  const latency = await measureLatency(
    scenarios.filter((scenario) => scenario.name === BUDGETS.viewScenario),
    { standard: requests, password: 0, heavySetup: 0 },
  );
  const [view] = latency;
  if (!view) throw new Error(`no measurement for ${BUDGETS.viewScenario}`);
  const budgets = checkViewBudgets(latency);
  const load = `load average ${loadAtStart.toFixed(2)} at the start, ${(loadavg()[0] as number).toFixed(2)} at the end`;
  console.log(
    `\n${BUDGETS.viewScenario}, ${requests} requests (${load})\n\n${table([
      ['', 'p50 ms', 'p99 ms'],
      ['handler', String(view.handlerMs.p50), String(view.handlerMs.p99)],
      [
        'its own work (DynamoDB round trips excluded)',
        String(view.overheadMs.p50),
        String(view.overheadMs.p99),
      ],
      ['DynamoDB round trips', String(view.dynamoRoundTripMs.p50), String(view.dynamoRoundTripMs.p99)],
      ['through the local runner', String(view.runnerMs.p50), String(view.runnerMs.p99)],
    ])}\n\nBudgets\n`,
  );
  console.log(
    table([
      ['', 'budget', 'limit', 'measured'],
      ...budgets.map((item) => [item.ok ? 'ok' : 'BROKEN', item.budget, item.limit, item.measured]),
    ]),
  );
  if (args.has('--check') && budgets.some((item) => !item.ok)) process.exitCode = 1;
} finally {
  await services.stop();
}
