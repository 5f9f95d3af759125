/** Nearest-rank percentile of unsorted samples (p in 0..100). */
export function percentile(samples: readonly number[], p: number): number {
  if (samples.length === 0) return Number.NaN;
  const sorted = [...samples].sort((a, b) => a - b);
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(sorted.length - 1, Math.max(0, rank - 1))] as number;
}

export const median = (samples: readonly number[]) => percentile(samples, 50);

export const mean = (samples: readonly number[]) =>
  samples.length === 0 ? Number.NaN : samples.reduce((sum, value) => sum + value, 0) / samples.length;

/** Rounds for the report: enough digits to compare, not to pretend. */
export const round = (value: number, digits = 3) => Number(value.toFixed(digits));

/** Prints rows as an aligned text table (first row is the header). */
export function table(rows: readonly (readonly (string | number)[])[]): string {
  const text = rows.map((row) => row.map(String));
  const widths =
    text[0]?.map((_, column) => Math.max(...text.map((row) => (row[column] ?? '').length))) ?? [];
  return text
    .map((row, index) => {
      const line = row.map((cell, column) => cell.padEnd(widths[column] ?? 0)).join('  ');
      return index === 0 ? `${line}\n${widths.map((width) => '-'.repeat(width)).join('  ')}` : line;
    })
    .join('\n');
}
