import { createHash } from 'node:crypto';

/** The view pages' one stylesheet (the file's page and the refusal page with its password form). */
export const STYLE = `
body{margin:0;font:16px/1.5 system-ui,sans-serif;background:#16171b;color:#e6e6e6}
main{max-width:960px;margin:0 auto;padding:24px 16px}
.left{text-align:left}.center{text-align:center}.right{text-align:right}
h1{font-size:1.25rem;margin:0 0 4px;overflow-wrap:anywhere}
.meta{color:#a0a0a8;margin:0 0 16px}
.content{white-space:pre-wrap;overflow-wrap:anywhere}
img,video{max-width:100%;max-height:80vh}
audio{width:100%;max-width:480px}
pre{text-align:left;white-space:pre-wrap;overflow-wrap:anywhere;background:#0e0f12;padding:12px;border-radius:6px}
a{color:#8ab4f8}
.button{display:inline-block;margin-top:12px;padding:8px 16px;border:0;border-radius:6px;background:#3b5bdb;color:#fff;font:inherit;text-decoration:none;cursor:pointer}
label{display:block;margin:16px 0 4px}
input{font:inherit;padding:8px;border-radius:6px;border:1px solid #50505a;background:#0e0f12;color:#e6e6e6;width:100%;max-width:320px;box-sizing:border-box}
`.trim();

/** The pages allow exactly this stylesheet, by hash: no script, no other style, no frames. */
export const STYLE_HASH = `'sha256-${createHash('sha256').update(STYLE).digest('base64')}'`;
