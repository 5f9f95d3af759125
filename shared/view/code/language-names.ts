/**
 * The names of the languages the view page highlights, by file extension and type: no grammar here,
 * so what only asks whether a file is code (the page's presentation, oEmbed) carries no Prism.
 */
/** The languages the page highlights (their Prism grammar ids) and the names it shows. */
export const LABELS: Record<string, string> = {
  markup: 'HTML/XML',
  css: 'CSS',
  javascript: 'JavaScript',
  typescript: 'TypeScript',
  python: 'Python',
  json: 'JSON',
  bash: 'Shell',
  yaml: 'YAML',
  toml: 'TOML',
  ini: 'INI',
  go: 'Go',
  rust: 'Rust',
  java: 'Java',
  c: 'C',
  cpp: 'C++',
  sql: 'SQL',
  diff: 'Diff',
  docker: 'Dockerfile',
  makefile: 'Makefile',
  lua: 'Lua',
};

/** The languages the page highlights, as the dashboard's paste page offers them. */
export const LANGUAGE_IDS = Object.keys(LABELS);

/** Each language's file name extensions (lowercase, no dot); `dockerfile`, `makefile` are whole names. */
const EXTENSIONS: Record<string, string> = {
  markup: 'html htm xml svg vue',
  css: 'css',
  javascript: 'js mjs cjs jsx',
  typescript: 'ts mts cts tsx',
  python: 'py pyw',
  json: 'json jsonc ndjson geojson webmanifest',
  bash: 'sh bash zsh ksh',
  yaml: 'yaml yml',
  toml: 'toml',
  ini: 'ini cfg conf properties env',
  go: 'go',
  rust: 'rs',
  java: 'java',
  c: 'c h',
  cpp: 'cpp cc cxx hpp hh hxx',
  sql: 'sql',
  diff: 'diff patch',
  docker: 'dockerfile',
  makefile: 'makefile mk',
  lua: 'lua',
};

const BY_EXTENSION: Record<string, string> = Object.fromEntries(
  Object.entries(EXTENSIONS).flatMap(([id, names]) => names.split(' ').map((name) => [name, id])),
);

/** Types (essence, lowercase) whose language the name does not say. */
const BY_TYPE: Record<string, string> = {
  'text/css': 'css',
  'text/javascript': 'javascript',
  'application/javascript': 'javascript',
  'application/x-javascript': 'javascript',
  'application/ecmascript': 'javascript',
  'text/jsx': 'javascript',
  'application/json': 'json',
  'application/x-ndjson': 'json',
  'application/x-sh': 'bash',
  'application/x-shellscript': 'bash',
  'text/x-sh': 'bash',
  'application/yaml': 'yaml',
  'application/x-yaml': 'yaml',
  'text/yaml': 'yaml',
  'application/toml': 'toml',
  'application/x-toml': 'toml',
  'application/sql': 'sql',
  'text/x-python': 'python',
  'text/x-c': 'c',
  'text/x-java-source': 'java',
  'text/x-lua': 'lua',
  'text/x-diff': 'diff',
  'text/x-patch': 'diff',
};

/**
 * The language id of a file: from its name's extension first (`Dockerfile`, `Makefile` by the whole
 * name), else from its type; none for plain text or a language the page does not carry.
 */
export function languageIdOf(fileName: string, type: string): string | undefined {
  const base = fileName.toLowerCase().split('/').pop() ?? '';
  const dot = base.lastIndexOf('.');
  const extension = dot === -1 ? base : base.slice(dot + 1);
  const essence = type.split(';')[0]?.trim().toLowerCase() ?? '';
  return BY_EXTENSION[extension] ?? BY_TYPE[essence];
}
