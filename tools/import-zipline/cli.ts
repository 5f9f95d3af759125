import { writeFile } from 'node:fs/promises';
import { readThroughApi } from './api-reader.ts';
import { type ByteSource, instanceBytes, uploadsFolder } from './bytes.ts';
import { readExportFile } from './export-file.ts';
import { type Options, parseOptions, USAGE, UsageError } from './options.ts';
import { planSnapshot } from './plan.ts';
import { formatBytes, Progress, showProgress } from './progress.ts';
import { askHidden } from './prompt.ts';
import { Report } from './report.ts';
import { importSnapshot } from './run.ts';
import { SignInError, signIn } from './target.ts';
import { reportVerification, verifyLinks } from './verify.ts';
import { ziplineClient } from './zipline-client.ts';

/**
 * `npm run import:zipline`: a Zipline 4.x instance (or its export file) into this service
 * (docs/migrate-from-zipline.md). Exit 0: nothing failed; 1: some rows failed (the report says which
 * and why; run again to retry them); 2: bad usage or sign-in; 130: interrupted (run again to continue).
 */
async function main(options: Options): Promise<number> {
  const client = options.from && options.token ? ziplineClient(options.from, options.token) : null;
  const bytes: ByteSource = options.uploads
    ? uploadsFolder(options.uploads)
    : instanceBytes(client as NonNullable<typeof client>);
  const snapshot = options.exportFile
    ? await readExportFile(options.exportFile)
    : await readThroughApi(client as NonNullable<typeof client>);
  const totalBytes = snapshot.files.reduce((sum, file) => sum + file.size, 0);
  const log = (line: string) => process.stderr.write(`${line}\n`);
  log(
    `source: ${snapshot.users.length} users, ${snapshot.folders.length} folders, ${snapshot.tags.length} tags, ${snapshot.urls.length} short links, ${snapshot.files.length} files (${formatBytes(totalBytes)})`,
  );
  const report = new Report();
  if (options.dryRun) {
    await planSnapshot(snapshot, bytes, report);
  } else {
    const password =
      process.env.IMPORT_TARGET_PASSWORD ??
      (await askHidden(`password of ${options.targetUser} on ${options.target}: `));
    const totp = options.totp;
    const target = await signIn(options.target, {
      username: options.targetUser as string,
      password,
      code: totp ? async () => totp : () => askHidden('TOTP code: '),
    });
    log(`target before: ${JSON.stringify(await target.status())}`);
    const aborting = new AbortController();
    const stop = () => {
      if (aborting.signal.aborted) process.exit(130);
      log('\nstopping after the files in flight (Ctrl-C again to quit at once)');
      aborting.abort();
    };
    process.on('SIGINT', stop).on('SIGTERM', stop);
    const progress = new Progress(snapshot.files.length, totalBytes);
    const hide = showProgress(progress, process.stderr);
    await importSnapshot(snapshot, target, bytes, report, {
      adoptExisting: options.adoptExisting,
      concurrency: options.concurrency,
      signal: aborting.signal,
      progress,
    });
    hide();
    log(`target after: ${JSON.stringify(await target.status())}`);
    if (options.verify && !report.interrupted) {
      const landed = new Set(
        report.entries
          .filter((entry) => entry.outcome === 'imported' || entry.outcome === 'already')
          .map((entry) => entry.id),
      );
      reportVerification(report, await verifyLinks(snapshot, landed, target, bytes, options.verify));
    }
  }
  process.stdout.write(`${report.text()}\n`);
  if (options.reportFile) await writeFile(options.reportFile, `${JSON.stringify(report, null, 2)}\n`);
  if (report.interrupted) return 130;
  return report.failed || report.notes.some((note) => /: [1-9]\d* problem/.test(note)) ? 1 : 0;
}

try {
  process.exitCode = await main(parseOptions(process.argv.slice(2), process.env));
} catch (error) {
  const usage = error instanceof UsageError;
  process.stderr.write(`${(error as Error).message}\n${usage ? `\n${USAGE}\n` : ''}`);
  process.exitCode = usage || error instanceof SignInError ? 2 : 1;
}
