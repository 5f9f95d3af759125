import type { ByteSource } from './bytes.ts';
import { fileBody, folderBody, tagBody, urlBody, userBody } from './mapping.ts';
import { Progress } from './progress.ts';
import type { Outcome, Report } from './report.ts';
import type { Snapshot, SourceFile } from './source.ts';
import type { Answer, Kind, Target } from './target.ts';
import { putBytes } from './upload.ts';

/**
 * One import run: users, then folders and tags, then short links, then files (the order the target's
 * references need). Resumption needs no journal: every PUT is idempotent on the Zipline id (the target
 * answers `created: false` and changes nothing), and a file whose bytes were cut off is started again
 * (a new PUT drops the unfinished upload). Four files at most in flight (the target allows four
 * pending uploads per owner); an abort lets those finish and starts no more.
 */
export interface RunOptions {
  adoptExisting: boolean;
  concurrency: number;
  signal?: AbortSignal;
  progress?: Progress;
}

function outcomeOf(answer: Answer): { outcome: Outcome; reason?: string } {
  const error = typeof answer.body.error === 'string' ? answer.body.error : `${answer.status}`;
  if (answer.status === 201 || (answer.status === 200 && answer.body.created === true))
    return { outcome: 'imported' };
  if (answer.status === 200) return { outcome: 'already' };
  if (answer.status === 409) return { outcome: 'skipped', reason: `collision: ${error}` };
  return { outcome: 'failed', reason: `${answer.status}: ${error}` };
}

export async function importSnapshot(
  snapshot: Snapshot,
  target: Target,
  bytes: ByteSource,
  report: Report,
  options: RunOptions,
) {
  const present: Record<Kind, Set<string>> = {
    users: new Set(),
    folders: new Set(),
    tags: new Set(),
    urls: new Set(),
    files: new Set(),
  };
  const usernames = new Map(snapshot.users.map((user) => [user.id, user.username]));
  report.notes.push(...snapshot.notes);

  const record = (kind: Kind, id: string, label: string, result: { outcome: Outcome; reason?: string }) => {
    if (result.outcome === 'imported' || result.outcome === 'already') present[kind].add(id);
    report.add({ kind, id, label, ...result });
  };
  const ownerMissing = (owner: string) =>
    present.users.has(owner)
      ? null
      : {
          outcome: 'skipped' as const,
          reason: `its owner ${usernames.get(owner) ?? owner} was not imported`,
        };
  const putRow = async (
    kind: Kind,
    id: string,
    label: string,
    owner: string | null,
    body: unknown,
    dropped: string[] = [],
  ) => {
    if (options.signal?.aborted) return;
    const missing = owner === null ? null : ownerMissing(owner);
    if (missing) return record(kind, id, label, missing);
    const result = outcomeOf(await target.put(kind, id, body));
    if (result.outcome === 'imported' && dropped.length) result.reason = `without ${dropped.join('; ')}`;
    record(kind, id, label, result);
  };

  for (const user of snapshot.users) {
    const { body, dropped } = userBody(user, options.adoptExisting);
    await putRow('users', user.id, user.username, null, body, dropped);
    const last = report.entries.at(-1);
    if (last?.outcome === 'skipped' && !options.adoptExisting)
      last.reason += ' (--adopt-existing maps it onto that account)';
  }
  for (const folder of snapshot.folders)
    await putRow('folders', folder.id, folder.name, folder.userId, folderBody(folder));
  for (const tag of snapshot.tags) await putRow('tags', tag.id, tag.name, tag.userId, tagBody(tag));
  for (const url of snapshot.urls)
    await putRow('urls', url.id, url.vanity ?? url.code, url.userId, urlBody(url));

  const progress = options.progress ?? new Progress(snapshot.files.length, 0);
  const importFile = async (file: SourceFile) => {
    const missing = ownerMissing(file.userId);
    if (missing) return record('files', file.id, file.name, missing);
    const { body, dropped } = fileBody(file, {
      folder: (id) => present.folders.has(id),
      tag: (id) => present.tags.has(id),
    });
    // The bytes are opened before the target is asked: a file without them never leaves a pending upload behind.
    const source = await bytes(file);
    if ('missing' in source)
      return record('files', file.id, file.name, { outcome: 'failed', reason: source.missing });
    const started = await target.put('files', file.id, body);
    if (started.status !== 202) {
      source.stream.destroy();
      progress.addBytes(file.size);
      return record('files', file.id, file.name, outcomeOf(started));
    }
    try {
      const upload = started.body.upload as { url: string; method: string; headers: Record<string, string> };
      await putBytes(upload, source.stream, file.size, (count) => progress.addBytes(count));
    } catch (error) {
      source.stream.destroy();
      return record('files', file.id, file.name, { outcome: 'failed', reason: (error as Error).message });
    }
    const result = outcomeOf(await target.complete(file.id, file.userId));
    if (result.outcome === 'imported' && dropped.length) result.reason = `without ${dropped.join('; ')}`;
    record('files', file.id, file.name, result);
  };

  const queue = [...snapshot.files];
  const worker = async () => {
    for (let file = queue.shift(); file; file = queue.shift()) {
      if (options.signal?.aborted) return;
      try {
        await importFile(file);
      } catch (error) {
        record('files', file.id, file.name, { outcome: 'failed', reason: (error as Error).message });
      }
      progress.fileDone();
    }
  };
  await Promise.all(Array.from({ length: Math.min(4, Math.max(1, options.concurrency)) }, worker));
  report.interrupted = options.signal?.aborted === true;
}
