import type { ByteSource } from './bytes.ts';
import { fileBody, userBody } from './mapping.ts';
import type { Report } from './report.ts';
import type { Snapshot } from './source.ts';

/**
 * `--dry-run`: what a run would do, read from the source only. The target is not contacted (not even
 * signed in to: a sign-in writes a session), so nothing anywhere changes; what only the target can
 * tell (a name already taken there) shows in the real run's report, as a collision.
 * What the source alone shows is reported: missing bytes, short links whose codes differ only by case
 * (the target's `/go/` names are case-insensitive), references left out.
 */
export async function planSnapshot(snapshot: Snapshot, bytes: ByteSource, report: Report) {
  report.notes.push(...snapshot.notes);
  for (const user of snapshot.users) {
    const { dropped } = userBody(user, false);
    report.add({
      kind: 'users',
      id: user.id,
      label: user.username,
      outcome: 'planned',
      ...(dropped.length ? { reason: `without ${dropped.join('; ')}` } : {}),
    });
  }
  for (const folder of snapshot.folders)
    report.add({ kind: 'folders', id: folder.id, label: folder.name, outcome: 'planned' });
  for (const tag of snapshot.tags)
    report.add({ kind: 'tags', id: tag.id, label: tag.name, outcome: 'planned' });
  const names = new Map<string, string>();
  for (const url of snapshot.urls) {
    const label = url.vanity ?? url.code;
    const clash = [url.code, url.vanity].flatMap((name) =>
      name && names.has(name.toLowerCase()) ? [names.get(name.toLowerCase())] : [],
    );
    for (const name of [url.code, url.vanity]) if (name) names.set(name.toLowerCase(), label);
    if (clash.length)
      report.add({
        kind: 'urls',
        id: url.id,
        label,
        outcome: 'skipped',
        reason: `collision: its name is also ${clash[0]}'s (names are case-insensitive here)`,
      });
    else report.add({ kind: 'urls', id: url.id, label, outcome: 'planned' });
  }
  const folders = new Set(snapshot.folders.map((folder) => folder.id));
  const tags = new Set(snapshot.tags.map((tag) => tag.id));
  for (const file of snapshot.files) {
    const source = await bytes(file);
    if ('missing' in source) {
      report.add({ kind: 'files', id: file.id, label: file.name, outcome: 'failed', reason: source.missing });
      continue;
    }
    source.stream.destroy();
    const { dropped } = fileBody(file, { folder: (id) => folders.has(id), tag: (id) => tags.has(id) });
    report.add({
      kind: 'files',
      id: file.id,
      label: file.name,
      outcome: 'planned',
      ...(dropped.length ? { reason: `without ${dropped.join('; ')}` } : {}),
    });
  }
}
