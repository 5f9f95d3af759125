import Sequencer from '@jest/test-sequencer';

/**
 * Seconds each slow test file took on the 2-core CI machine (clean-clone run of 26 Nov 2026, files
 * run one after the other), rounded. With two workers the run ends when the last file does: the
 * longest files start first so the tail is short files, not a 100 s one started last. A clean clone
 * has no timings of its own (jest records them in its cache after a run, and that cache takes
 * precedence here when present); a file not listed counts as short. Update a figure when a file's
 * time changes much (`npx jest --verbose` prints each file's).
 */
const DECLARED_SECONDS = {
  'http/users-delete-large.test.ts': 75,
  'infra/bundles.test.ts': 110,
  'hardening/fuzz.test.ts': 105,
  'http/chunked-limits.test.ts': 80,
  'http/exports.test.ts': 40,
  'browser/file-details.test.ts': 49,
  'hardening/requests.test.ts': 40,
  'browser/account.test.ts': 41,
  'browser/dashboard.test.ts': 32,
  'http/tags-cost.test.ts': 30,
  'browser/totp.test.ts': 28,
  'browser/tags.test.ts': 27,
  'browser/home.test.ts': 26,
  'browser/links.test.ts': 26,
  'http/runner.test.ts': 25,
  'browser/oauth.test.ts': 24,
  'infra/budget.test.ts': 24,
  'browser/metrics.test.ts': 24,
  'browser/exports.test.ts': 24,
  'browser/raw-content.test.ts': 21,
  'infra/stack.test.ts': 20,
  'browser/server-settings.test.ts': 20,
  'http/thumbnails.test.ts': 18,
  'infra/grants.test.ts': 18,
  'http/oauth-oidc.test.ts': 18,
  'infra/operations.test.ts': 18,
  'infra/resource-figures.test.ts': 17,
  'http/files-list.test.ts': 16,
  'infra/dashboard.test.ts': 16,
  'browser/login.test.ts': 16,
  'scale/simulation.test.ts': 15,
  'browser/passkeys.test.ts': 15,
};

/** Longest first: jest's own recorded duration, else the declared one, else the file's size as a tiebreak. */
export default class LongestFirstSequencer extends Sequencer {
  sort(tests) {
    const seconds = (test) => {
      const recorded = this.time(test);
      if (recorded != null) return recorded / 1000;
      const relative = test.path.slice(test.path.lastIndexOf('/tests/') + '/tests/'.length);
      return DECLARED_SECONDS[relative] ?? 0;
    };
    const size = (test) => test.context.hasteFS.getSize(test.path) ?? 0;
    const keyed = tests.map((test) => ({ test, seconds: seconds(test), size: size(test) }));
    keyed.sort((a, b) => b.seconds - a.seconds || b.size - a.size);
    return keyed.map(({ test }) => test);
  }
}
