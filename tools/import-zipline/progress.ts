/**
 * Files and bytes done, rate and time left, from a clock the tests give. On a terminal one line is
 * redrawn in place; otherwise (CI logs, a pipe) a plain line is written every `plainEvery` ms.
 */
export function formatBytes(bytes: number): string {
  const units = ['B', 'KB', 'MB', 'GB', 'TB'];
  let value = bytes;
  let unit = 0;
  while (value >= 1000 && unit < units.length - 1) {
    value /= 1000;
    unit++;
  }
  return `${unit === 0 ? Math.round(value) : value.toFixed(1)} ${units[unit]}`;
}

export function formatDuration(seconds: number): string {
  if (!Number.isFinite(seconds)) return '?';
  const whole = Math.max(0, Math.round(seconds));
  const hours = Math.floor(whole / 3600);
  const minutes = Math.floor((whole % 3600) / 60);
  const rest = whole % 60;
  if (hours) return `${hours}h ${minutes}m`;
  return minutes ? `${minutes}m ${rest}s` : `${rest}s`;
}

export class Progress {
  files = 0;
  bytes = 0;
  private readonly started: number;

  constructor(
    readonly totalFiles: number,
    readonly totalBytes: number,
    private readonly now: () => number = Date.now,
  ) {
    this.started = now();
  }

  addBytes(count: number) {
    this.bytes += count;
  }

  fileDone() {
    this.files++;
  }

  /** `files 12/300 · 45.1 MB/1.2 GB · 3.4 MB/s · 5m 12s left` (time left from the byte rate so far). */
  line(): string {
    const seconds = (this.now() - this.started) / 1000;
    const rate = seconds > 0 ? this.bytes / seconds : 0;
    const left = rate > 0 ? (this.totalBytes - this.bytes) / rate : Number.POSITIVE_INFINITY;
    return [
      `files ${this.files}/${this.totalFiles}`,
      `${formatBytes(this.bytes)}/${formatBytes(this.totalBytes)}`,
      `${formatBytes(rate)}/s`,
      `${formatDuration(left)} left`,
    ].join(' · ');
  }
}

/** Shows a progress until stopped; returns the stop function (which writes the last line). */
export function showProgress(progress: Progress, out: NodeJS.WriteStream, plainEvery = 10_000): () => void {
  const tty = out.isTTY === true;
  const draw = () => out.write(tty ? `\r\x1b[2K${progress.line()}` : `${progress.line()}\n`);
  const timer = setInterval(draw, tty ? 250 : plainEvery);
  timer.unref();
  return () => {
    clearInterval(timer);
    draw();
    if (tty) out.write('\n');
  };
}
