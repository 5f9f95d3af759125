import type { Token, TokenStream } from 'prismjs';
import { Prism } from '#shared/view/code/prism';
import { escapeHtml } from '#shared/view/markup/html';

/** A token's classes: `t-` and its type and aliases (the page's stylesheet colours a few of them). */
function classesOf(token: Token): string {
  const aliases = token.alias === undefined ? [] : Array.isArray(token.alias) ? token.alias : [token.alias];
  return [token.type, ...aliases].map((name) => `t-${name.replace(/[^\w-]/g, '')}`).join(' ');
}

/**
 * Highlighted code, one `<span class="l">` per line, every token's text escaped here (Prism's own
 * HTML output is not used): a token that spans lines (a block comment, a template string) is closed
 * at each line's end and opened again on the next, so every line is whole markup on its own. Without
 * a language, the lines as escaped text.
 */
export function highlightLines(text: string, language: string | undefined): string {
  const grammar = language === undefined ? undefined : Prism.languages[language];
  const stream: TokenStream = grammar ? Prism.tokenize(text, grammar) : [text];
  const lines: string[] = [];
  let line = '';
  // Whether the line holds text, not only the spans reopened for it: a token ending in a newline
  // (a diff's line) leaves reopened spans behind it that start no line.
  let lineHasText = false;
  const open: string[] = [];
  const endLine = () => {
    lines.push(line + '</span>'.repeat(open.length));
    line = open.map((classes) => `<span class="${classes}">`).join('');
    lineHasText = false;
  };
  const write = (piece: string) => {
    let start = 0;
    for (let end = piece.indexOf('\n'); end !== -1; end = piece.indexOf('\n', start)) {
      line += escapeHtml(piece.slice(start, end));
      endLine();
      start = end + 1;
    }
    const rest = piece.slice(start);
    line += escapeHtml(rest);
    lineHasText ||= rest !== '';
  };
  const walk = (tokens: TokenStream) => {
    if (typeof tokens === 'string') return write(tokens);
    if (!Array.isArray(tokens)) {
      const classes = classesOf(tokens);
      open.push(classes);
      line += `<span class="${classes}">`;
      walk(tokens.content);
      open.pop();
      line += '</span>';
      return;
    }
    for (const token of tokens) walk(token);
  };
  walk(stream);
  // A final newline ends the last line; it does not start an empty one.
  if (lineHasText || lines.length === 0) lines.push(line);
  return lines.map((markup) => `<span class="l">${markup}\n</span>`).join('');
}
