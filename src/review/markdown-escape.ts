// Total escaping for text and code spans. Escaping alone does not make text inert on GitHub: it
// turns `@name`, `#12`, `GH-12` into mentions and references *after* Markdown (in the rendered
// text), and its autolinker finds URLs even behind a backslash (`x\*www.host`). So text is also
// rewritten: every `@` becomes U+FF20, a `#` or `GH-` before a digit gets a look-alike, and any
// word holding a URL is shown as a code span, where nothing is linked.

import { delimitCode } from "./code-span.ts";
import { breakMarkers, stripInvisible } from "./markdown-text.ts";

export interface TextContext {
  /** Headings, table cells and titles: line breaks become spaces. */
  readonly oneLine?: boolean;
  /** Inside a GFM table cell, `|` splits cells even in code spans, so it is escaped there too. */
  readonly inTable?: boolean;
}

const URL_WORD = /:\/\/|www\./i;
// Backslash-escaped wherever they appear: each can open or close some construct (`<` and `&`
// become entities, so no tag, autolink or entity can ever be spelled).
const ALWAYS: Readonly<Record<string, string>> = {
  "\\": "\\\\",
  "&": "&amp;",
  "`": "\\`",
  "*": "\\*",
  _: "\\_",
  "[": "\\[",
  "]": "\\]",
  "<": "&lt;",
  ">": "\\>",
  "|": "\\|",
  "~": "\\~",
  $: "\\$", // GitHub renders $…$ as math
  "#": "\\#",
  "@": "\uFF20", // ＠ never mentions anyone, and no e-mail address is autolinked
};

/** ALWAYS but the underscore, by character code (every one of them is ASCII). */
const ESCAPE_OF: readonly (string | undefined)[] = Array.from({ length: 128 }, (_, code) => {
  const char = String.fromCharCode(code);
  return char === "_" ? undefined : ALWAYS[char];
});
/** An underscore not between two letters or digits. */
const EMPHASIS_UNDERSCORE = /(?<![A-Za-z0-9])_|_(?![A-Za-z0-9])/g;

export function escapeText(value: string, context: TextContext = {}): string {
  const visible = stripInvisible(value);
  const spaced = visible.includes("\t") ? visible.replace(/\t/g, " ") : visible;
  // Words holding a URL become code spans; the text between them is escaped in one piece rather
  // than word by word (escaping never looks past a word's own characters: whitespace is left as it
  // is and is no letter or digit), which costs a third as much on a long text.
  const joined = spaced.includes("\n") ? joinLines(spaced, context.oneLine === true ? " " : "\n") : spaced;
  if (!URL_WORD.test(joined)) return escapeWords(joined); // most text: no word to look at alone
  const out: string[] = [];
  let plain = "";
  for (const word of joined.split(/(\s+)/)) {
    if (!URL_WORD.test(word)) {
      plain += word;
      continue;
    }
    out.push(escapeWords(plain), codeSpan(word, context));
    plain = "";
  }
  out.push(escapeWords(plain));
  return out.join("");
}

/** The lines of a text joined by `separator`, whitespace around each line break and blank lines gone. */
function joinLines(text: string, separator: string): string {
  const lines = text.split("\n");
  // Whitespace around a line break goes (a regex like /\s*\n\s*/ would backtrack quadratically).
  return lines
    .map((line, i) => {
      const start = i > 0 ? line.trimStart() : line;
      return i < lines.length - 1 ? start.trimEnd() : start;
    })
    .filter((line, i) => line !== "" || i === 0 || i === lines.length - 1)
    .join(separator);
}

/** Escapes words and the whitespace between them (left as it is). */
function escapeWords(words: string): string {
  // "#1" and "GH-1" are references; "＃1" and "GH‑1" (non-breaking hyphen) are not.
  let escaped = words.replace(/#(?=\d)/g, "\uFF03").replace(/(gh)-(?=\d)/gi, "$1\u2011");
  // One walk over the text, each character escaped once: a replacement is never read again, so
  // the backslashes and ampersands it writes stay as written (a pass a character, as this was
  // before, needed the backslash's and the ampersand's passes first, and cost a third more).
  let out = "";
  let from = 0;
  for (let at = 0; at < escaped.length; at++) {
    const code = escaped.charCodeAt(at);
    const replacement = code < 128 ? ESCAPE_OF[code] : undefined;
    if (replacement === undefined) continue;
    out += escaped.slice(from, at) + replacement;
    from = at + 1;
  }
  if (from > 0) escaped = out + escaped.slice(from);
  // An underscore between two letters or digits can neither open nor close emphasis (GFM's
  // intraword rule), so snake_case stays readable in the raw text. (What the passes above wrote
  // around an underscore is never a letter or digit, nor was what they replaced.)
  return escaped.includes("_") ? escaped.replace(EMPHASIS_UNDERSCORE, "\\_") : escaped;
}

/**
 * Removes what could start a block at the start of a line of escaped text: indentation (code),
 * `-`, `+`, `=` (lists, setext underlines, thematic breaks) and `1.`/`1)` (ordered lists). The
 * other block starters (`#`, `>`, `*`, `` ` ``, `~`, `<`, `|`, `[`) are escaped everywhere.
 * Every kind of whitespace at a line start goes first, a no-break space included: GitHub keeps
 * one before a marker, but any later trim would drop it and leave the marker bare.
 */
export function guardLineStarts(markdown: string): string {
  return markdown
    .replace(/(^|\n)[^\S\n]+/g, "$1")
    .replace(/(^|\n)(?:([-+=])|(\d{1,9})([.)]))/g, (_m, start: string, sign, digits, dot) =>
      sign !== undefined ? `${start}\\${sign}` : `${start}${digits}\\${dot}`,
    );
}

/** Inline code on one line that its content cannot close (code-span.ts chooses the delimiter). */
export function codeSpan(value: string, context: TextContext = {}): string {
  let content = breakMarkers(stripInvisible(value)).replace(/[\t\n]/g, " ");
  // A table row is split at every pipe not escaped by an odd run of backslashes (GFM's cell scanner
  // pairs them up first): a run before a pipe is doubled, so the pipe's own escape stays odd.
  if (context.inTable === true) content = content.replace(/(\\*)\|/g, (_m, run: string) => `${run}${run}\\|`);
  return content === "" ? "" : delimitCode(content);
}
