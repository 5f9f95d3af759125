import type { Kind } from './target.ts';

/** What happened to each Zipline row: the final report, printed and (with `--report`) written as JSON. */
export type Outcome = 'imported' | 'already' | 'skipped' | 'failed' | 'planned';

export interface Entry {
  kind: Kind;
  id: string;
  /** Its name for people: username, folder/tag name, link code, file name. */
  label: string;
  outcome: Outcome;
  reason?: string;
}

export class Report {
  readonly entries: Entry[] = [];
  readonly notes: string[] = [];
  interrupted = false;

  add(entry: Entry) {
    this.entries.push(entry);
  }

  count(kind: Kind, outcome: Outcome): number {
    return this.entries.filter((entry) => entry.kind === kind && entry.outcome === outcome).length;
  }

  get failed(): number {
    return this.entries.filter((entry) => entry.outcome === 'failed').length;
  }

  toJSON() {
    return { interrupted: this.interrupted, notes: this.notes, entries: this.entries };
  }

  /** A table of counts per kind, then every skipped and failed row with its reason, then the notes. */
  text(): string {
    const kinds: Kind[] = ['users', 'folders', 'tags', 'urls', 'files'];
    const outcomes: Outcome[] = ['planned', 'imported', 'already', 'skipped', 'failed'];
    const shown = outcomes.filter((outcome) => this.entries.some((entry) => entry.outcome === outcome));
    const header = ['', ...shown.map((outcome) => (outcome === 'already' ? 'already there' : outcome))];
    const rows = kinds.map((kind) => [kind, ...shown.map((outcome) => String(this.count(kind, outcome)))]);
    const widths = header.map((_, column) =>
      Math.max(...[header, ...rows].map((row) => (row[column] ?? '').length)),
    );
    const lines = [header, ...rows].map((row) =>
      row
        .map((cell, column) => cell.padEnd(widths[column] ?? 0))
        .join('  ')
        .trimEnd(),
    );
    for (const outcome of ['skipped', 'failed'] as const) {
      const listed = this.entries.filter((entry) => entry.outcome === outcome);
      if (listed.length) lines.push('', `${outcome}:`);
      for (const entry of listed)
        lines.push(`  ${entry.kind} ${entry.label} (${entry.id}): ${entry.reason ?? ''}`);
    }
    if (this.notes.length) lines.push('', 'notes:', ...this.notes.map((note) => `  ${note}`));
    if (this.interrupted) lines.push('', 'interrupted: run the same command again to continue.');
    return lines.join('\n');
  }
}
