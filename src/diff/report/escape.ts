/**
 * Every string a diff report prints comes from dist/, a chart or a chart module: a kind, a name, a key, a value
 * can hold line breaks, terminal escape sequences, Markdown or HTML. One escaping function per output format, so
 * that what is read is shown as text and never acts: no escape sequence reaches a terminal or CI log, no name
 * splits a table row, closes a code fence, opens a link or an HTML element. Pure.
 */

/**
 * Characters that act on a terminal or on how text is laid out, shown escaped: C0 controls (line breaks, ESC,
 * BEL…), DEL, C1 controls (U+009B is an 8-bit CSI), the Unicode line and paragraph separators, and the
 * bidirectional overrides and isolates that reorder what is shown ("Trojan source").
 */
const ACTIVE = /[\u0000-\u001f\u007f-\u009f\u2028\u2029\u200e\u200f\u202a-\u202e\u2066-\u2069\ufeff]/g;

const SHORT: Readonly<Record<string, string>> = { '\n': '\\n', '\r': '\\r', '\t': '\\t' };

function visible(c: string): string {
  const short = SHORT[c];
  if (short !== undefined) return short;
  const code = c.charCodeAt(0);
  return code <= 0xff
    ? `\\x${code.toString(16).padStart(2, '0')}`
    : `\\u${code.toString(16).padStart(4, '0')}`;
}

/** Text for a terminal or a log: one line, every control character shown as an escape (`\n`, `\x1b`, `\u202e`). */
export function escapeTerminal(text: string): string {
  return text.replace(ACTIVE, visible);
}

/**
 * Text of several lines (an error whose message a chart module wrote over lines) for a terminal: each line as
 * {@link escapeTerminal} shows it, those after the first indented (when not already), so no line of it can pass
 * for a line of its own.
 */
export function escapeTerminalLines(text: string): string {
  return text
    .split('\n')
    .map((line, i) => (i === 0 || line.startsWith('  ') ? line : `  ${line}`))
    .map(escapeTerminal)
    .join('\n');
}

/** What `JSON.stringify` leaves raw among {@link ACTIVE}: it escapes every C0 control itself. */
const ACTIVE_IN_JSON = /[\u007f-\u009f\u2028\u2029\u200e\u200f\u202a-\u202e\u2066-\u2069\ufeff]/g;

/**
 * JSON that is safe to print: `JSON.stringify` escapes C0 controls (ESC is `\u001b`) but leaves DEL, C1 controls,
 * U+2028/2029 and bidi controls raw; they are written as `\uXXXX` escapes, which read back as the same string.
 * Only for the output of `JSON.stringify` (outside its strings there is only ASCII).
 */
export function escapeJson(json: string): string {
  return json.replace(ACTIVE_IN_JSON, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/**
 * Plain text in Markdown, inside a table cell or an HTML block (`<summary>`): one line, and every character that
 * Markdown or HTML reads as markup written as a numeric entity, so no emphasis, link, image, HTML element, table
 * cell, heading, mention (`@`), issue reference (`#1`) or autolink (`https://`, `www.`) is made.
 */
export function escapeMarkdown(text: string): string {
  return escapeTerminal(text)
    .replace(/[\\`*_[\]<>&|#@~!$"'{}]/g, (c) => `&#${c.charCodeAt(0)};`)
    .replace(/:\/\//g, '&#58;//')
    .replace(/www\./gi, (w) => `${w.slice(0, 3)}&#46;`);
}

/**
 * Inline code in Markdown, shown literally whatever it holds: one line, a fence of backticks longer than any run
 * of backticks in it, and `|` escaped as GitHub requires in a table cell (also inside code).
 */
export function markdownCode(text: string): string {
  const line = escapeTerminal(text);
  const longest = Math.max(0, ...[...line.matchAll(/`+/g)].map((m) => m[0].length));
  const fence = '`'.repeat(longest + 1);
  const pad = line.startsWith('`') || line.endsWith('`') ? ' ' : '';
  return `${fence}${pad}${line}${pad}${fence}`.replace(/\|/g, '\\|');
}

/**
 * The text of a quoted Mermaid label: one line, and every character Mermaid or the HTML it draws reads as syntax
 * written as a Mermaid entity code (`#34;`), backticks included (they would start a Markdown string, and a run of
 * them could end the code fence around the graph).
 */
export function escapeMermaid(text: string): string {
  return escapeTerminal(text).replace(/[#"<>&`'[\](){}|;%\\:]/g, (c) => `#${c.charCodeAt(0)};`);
}

/** A Markdown code fence for `body`: backticks, longer than any run of backticks inside it (at least three). */
export function fenceFor(body: string): string {
  const longest = Math.max(0, ...[...body.matchAll(/`+/g)].map((m) => m[0].length));
  return '`'.repeat(Math.max(3, longest + 1));
}
