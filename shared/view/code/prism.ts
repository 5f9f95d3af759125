/**
 * Prism with the languages the view page highlights: its main module (the core with markup, CSS,
 * C-like and JavaScript), then the components in dependency order (each extends the grammars loaded
 * before it through the global `Prism` the core sets). Chosen for bytes: the
 * core is 9 KB minified against highlight.js's 23 KB, its grammars are smaller (CSS 1.3 KB against
 * 13 KB), and `tokenize` hands back a token tree the page renders and escapes itself, line by line.
 */
import Prism from 'prismjs';
import 'prismjs/components/prism-typescript.js';
import 'prismjs/components/prism-python.js';
import 'prismjs/components/prism-json.js';
import 'prismjs/components/prism-bash.js';
import 'prismjs/components/prism-yaml.js';
import 'prismjs/components/prism-toml.js';
import 'prismjs/components/prism-ini.js';
import 'prismjs/components/prism-go.js';
import 'prismjs/components/prism-rust.js';
import 'prismjs/components/prism-java.js';
import 'prismjs/components/prism-c.js';
import 'prismjs/components/prism-cpp.js';
import 'prismjs/components/prism-sql.js';
import 'prismjs/components/prism-diff.js';
import 'prismjs/components/prism-docker.js';
import 'prismjs/components/prism-makefile.js';
import 'prismjs/components/prism-lua.js';

export { Prism };
