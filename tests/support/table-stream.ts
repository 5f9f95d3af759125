import { type TableStream, tableStream } from '../../infra/local/table-stream.ts';
import { wantTableStream } from './table-stream-wanted.ts';

// A file that drains the stream needs its table made with one.
wantTableStream();

let stream: TableStream | undefined;

/**
 * Resolves once every change this test file's table took before the call has reached the stream
 * functions (the view totals), as the runner's poller hands them over: what a test that reads the
 * owners' totals after a view awaits, never a sleep. The first call reads the table's stream from
 * its beginning (each test file has a fresh table).
 */
export function streamDrained(): Promise<void> {
  stream ??= tableStream(process.env.DYNAMODB_ENDPOINT as string, process.env.TABLE_NAME as string);
  return stream.drain();
}
