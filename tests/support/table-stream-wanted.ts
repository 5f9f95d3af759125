/**
 * Whether this test file's table gets the stream (support/table.ts). Jest gives each test file its own
 * global object, so the flag is the file's: set when the file imports `table-stream.ts`, read when
 * the table is made, before the file's tests run.
 */
const WANTED = Symbol.for('file-service.tests.tableStream');

export function wantTableStream(): void {
  (globalThis as Record<symbol, unknown>)[WANTED] = true;
}

export function tableStreamWanted(): boolean {
  return (globalThis as Record<symbol, unknown>)[WANTED] === true;
}
