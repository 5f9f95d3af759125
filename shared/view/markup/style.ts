import { createHash } from 'node:crypto';

/** Colours for dark (the default) and light screens (`prefers-color-scheme`), as custom properties. */
const COLOURS = `
:root{color-scheme:dark;--bg:#16171b;--fg:#e6e6e6;--dim:#a0a0a8;--panel:#0e0f12;--line:#2c2d33;--link:#8ab4f8;--input:#50505a;
--comment:#8b949e;--keyword:#ff7b72;--string:#a5d6ff;--number:#79c0ff;--function:#d2a8ff;--builtin:#ffa657;--tag:#7ee787;--deleted:#ffa198;--inserted:#7ee787}
@media (prefers-color-scheme:light){:root{color-scheme:light;--bg:#fff;--fg:#1f2328;--dim:#59636e;--panel:#f6f8fa;--line:#d1d9e0;--link:#0969da;--input:#8c959f;
--comment:#59636e;--keyword:#cf222e;--string:#0a3069;--number:#0550ae;--function:#8250df;--builtin:#953800;--tag:#116329;--deleted:#82071e;--inserted:#116329}}
`;

/**
 * Text files: highlighted code with line numbers (a CSS counter, so copying the code copies no
 * numbers), a wrap toggle that is a checkbox read by `:has()` (no script, no second request, which
 * would count a second view), and rendered Markdown. Token classes are Prism's types, `t-` prefixed.
 */
const TEXT = `
.code,.markdown{text-align:left}
.bar{display:flex;flex-wrap:wrap;gap:4px 16px;align-items:center;color:var(--dim);margin:0 0 8px}
.bar label{display:inline;margin:0}.bar input{width:auto;margin:0 4px 0 0}
.code pre{white-space:pre;overflow-x:auto;overflow-wrap:normal;counter-reset:line;padding:12px 0}
.code:has(.wrap:checked) pre{white-space:pre-wrap;overflow-wrap:anywhere}
.code .l{display:block;padding:0 12px 0 4.5em;text-indent:-4.5em}
.code .l::before{counter-increment:line;content:counter(line);display:inline-block;width:3.5em;margin-right:1em;text-align:right;color:var(--dim);text-indent:0;user-select:none}
pre code{font:14px/1.45 ui-monospace,SFMono-Regular,Menlo,Consolas,monospace}
.markdown pre{white-space:pre;overflow-x:auto}
.markdown img{max-width:100%}
.markdown table{border-collapse:collapse}.markdown th,.markdown td{border:1px solid var(--line);padding:4px 8px}
.markdown blockquote{margin:0;padding:0 12px;border-left:4px solid var(--line);color:var(--dim)}
.markdown code{font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace}
.t-comment,.t-prolog,.t-doctype,.t-cdata{color:var(--comment);font-style:italic}
.t-keyword,.t-atrule,.t-important,.t-rule{color:var(--keyword)}
.t-string,.t-char,.t-regex,.t-url,.t-attr-value{color:var(--string)}
.t-number,.t-boolean,.t-constant,.t-attr-name,.t-symbol{color:var(--number)}
.t-function,.t-class-name,.t-selector{color:var(--function)}
.t-builtin,.t-property,.t-variable,.t-key{color:var(--builtin)}
.t-tag,.t-section{color:var(--tag)}
.t-deleted{color:var(--deleted)}.t-inserted{color:var(--inserted)}
`;

/** A public folder's cards (view/folder-cards.ts): a grid of previews, each with its name and size. */
const FOLDER = `
.cards{list-style:none;padding:0;margin:0;display:grid;grid-template-columns:repeat(auto-fill,minmax(220px,1fr));gap:16px}
.card{display:flex;flex-direction:column;gap:4px;min-width:0;background:var(--panel);border:1px solid var(--line);border-radius:8px;padding:8px}
.card>a{overflow-wrap:anywhere}.card .meta{margin:0;font-size:.875rem}
.preview{display:flex;align-items:center;justify-content:center;height:160px;overflow:hidden;border-radius:6px;background:var(--bg)}
.preview img,.preview video{max-width:100%;max-height:160px;object-fit:contain}
.preview audio{width:100%}
.preview .snippet{margin:0;padding:8px;width:100%;height:100%;box-sizing:border-box;overflow:hidden;font:12px/1.4 ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;white-space:pre;background:transparent}
.preview .kind{color:var(--dim);font-size:.875rem;padding:8px;text-align:center;overflow-wrap:anywhere}
.pages{display:flex;gap:16px;margin:24px 0 0}
`;

/** The view pages' one stylesheet (the file's page and the refusal page with its password form). */
export const STYLE = `${COLOURS.trim()}
body{margin:0;font:16px/1.5 system-ui,sans-serif;background:var(--bg);color:var(--fg)}
main{max-width:960px;margin:0 auto;padding:24px 16px}
.left{text-align:left}.center{text-align:center}.right{text-align:right}
h1{font-size:1.25rem;margin:0 0 4px;overflow-wrap:anywhere}
.meta{color:var(--dim);margin:0 0 16px}
.content{white-space:pre-wrap;overflow-wrap:anywhere}
img,video{max-width:100%;max-height:80vh}
audio{width:100%;max-width:480px}
pre{text-align:left;white-space:pre-wrap;overflow-wrap:anywhere;background:var(--panel);padding:12px;border-radius:6px}
a{color:var(--link)}
.button{display:inline-block;margin-top:12px;padding:8px 16px;border:0;border-radius:6px;background:#3b5bdb;color:#fff;font:inherit;text-decoration:none;cursor:pointer}
label{display:block;margin:16px 0 4px}
input{font:inherit;padding:8px;border-radius:6px;border:1px solid var(--input);background:var(--panel);color:var(--fg);width:100%;max-width:320px;box-sizing:border-box}
${TEXT.trim()}
${FOLDER.trim()}`;

/** The pages allow exactly this stylesheet, by hash: no script, no other style, no frames. */
export const STYLE_HASH = `'sha256-${createHash('sha256').update(STYLE).digest('base64')}'`;
