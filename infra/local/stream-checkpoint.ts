import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';

/**
 * Where the runner's stream poller has got to in each shard: the sequence number of the last record
 * it handed over, kept in a file of `DATA_DIR`, as Lambda's event source mapping keeps its place in
 * AWS. A terminal's Ctrl-C stops DynamoDB Local with the runner, before the poller's last drain; the
 * next start resumes after the last record handed over instead of at the stream's end, so no
 * change is skipped (a change handed over just before a crash and not yet written here comes again,
 * as Lambda may deliver a record twice).
 */
export interface StreamCheckpoint {
  /** Whether the file existed when read: a shard it does not name began after it was written. */
  readonly kept: boolean;
  /** The sequence number of the last record handed over in `shardId`, if any. */
  after(shardId: string): string | undefined;
  /** Records that `shardId` was handed over up to `sequenceNumber`. */
  advance(shardId: string, sequenceNumber: string): void;
  /**
   * Writes what `advance` recorded (a temporary file renamed over the old, so a crash leaves one
   * whole); `always` writes it even unchanged, so that the next start knows it was kept.
   */
  save(options?: { always?: boolean }): void;
}

export function streamCheckpoint(path: string): StreamCheckpoint {
  const kept = existsSync(path);
  const shards: Record<string, string> = kept ? JSON.parse(readFileSync(path, 'utf8')) : {};
  let changed = false;
  return {
    kept,
    after: (shardId) => shards[shardId],
    advance(shardId, sequenceNumber) {
      shards[shardId] = sequenceNumber;
      changed = true;
    },
    save(options = {}) {
      if (!changed && !options.always) return;
      writeFileSync(`${path}.tmp`, JSON.stringify(shards));
      renameSync(`${path}.tmp`, path);
      changed = false;
    },
  };
}
