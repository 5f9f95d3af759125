import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { originalPositionFor, TraceMap } from '@jridgewell/trace-mapping';

/**
 * Stack traces in terms of the TypeScript sources, applied only where an error is logged. Not Node's
 * `--enable-source-maps`: it parses every bundle's map when the bundle loads (about 9 ms of each
 * Lambda cold start) and maps frames for every stack anything formats, where only a logged failure
 * needs them (docs/performance.md). A bundle's map is read the first time one of its frames is shown.
 */
const maps = new Map<string, TraceMap | undefined>();

function mapOf(file: string): TraceMap | undefined {
  if (!maps.has(file)) {
    const path = `${file}.map`;
    maps.set(file, existsSync(path) ? new TraceMap(readFileSync(path, 'utf8'), file) : undefined);
  }
  return maps.get(file);
}

/** `at name (file:line:column)` or `at file:line:column`, for a file on disk (not `node:` ones). */
const FRAME = /^(\s+at (?:(.+?) \()?)((?:file:\/\/)?\/[^():]+):(\d+):(\d+)(\)?)$/;

function mappedFrame(line: string): string {
  const frame = FRAME.exec(line);
  if (!frame) return line;
  const [, , name, location, lineNumber, column] = frame as unknown as [
    string,
    string,
    string | undefined,
    string,
    string,
    string,
  ];
  const file = location.startsWith('file://') ? fileURLToPath(location) : location;
  const map = mapOf(file);
  const original = map && originalPositionFor(map, { line: Number(lineNumber), column: Number(column) - 1 });
  if (!original?.source || original.line === null) return line;
  const where = `${original.source}:${original.line}:${original.column + 1}`;
  return name ? `    at ${name} (${where})` : `    at ${where}`;
}

/** The stack with each frame of a bundle that has a `.map` beside it pointing into the sources. */
export function sourceMappedStack(stack: string): string {
  return stack.split('\n').map(mappedFrame).join('\n');
}
