// Small Markdown building blocks shared by the sanitiser and the renderers: invisible-character
// removal, marker-forgery breaking, and code spans/fences that cannot be closed by their content.

// Zero-width (U+200B–U+200D, U+2060, U+FEFF), invisible operators (U+2061–U+2064), soft hyphen,
// bidi controls and marks (U+202A–U+202E, U+2066–U+2069, U+200E, U+200F, U+061C) and Unicode tag
// characters (U+E0000–U+E007F): all of them can hide or reorder text a reviewer reads.
const INVISIBLE =
  /[\u200B-\u200F\u2060-\u2064\uFEFF\u00AD\u061C\u202A-\u202E\u2066-\u2069\u{E0000}-\u{E007F}]/gu;
// C0/C1 controls other than tab and newline (CR is normalised to LF first).
const CONTROL = /[\u0000-\u0008\u000B-\u001F\u007F-\u009F]/g;

export function stripInvisible(text: string): string {
  return text.replace(/\r\n?/g, "\n").replace(INVISIBLE, "").replace(CONTROL, "");
}

/**
 * Loupe's hidden markers all start with "<!-- loupe". Inside code (where an HTML comment is
 * shown, not hidden) one is still present in the raw body, so break it there too.
 */
export function breakMarkers(text: string): string {
  return text.replace(/<!--(?=\s*loupe)/gi, "<!- -");
}

export function longestRun(text: string, char: string): number {
  let longest = 0;
  let current = 0;
  for (const c of text) {
    current = c === char ? current + 1 : 0;
    if (current > longest) longest = current;
  }
  return longest;
}

/** A fence longer than any backtick run in the content, so the content cannot close it. */
export function fenceFor(content: string): string {
  return "`".repeat(Math.max(3, longestRun(content, "`") + 1));
}

/** A fenced code block around trusted-shape content (the content itself is not rendered). */
export function codeBlock(content: string, info = ""): string {
  const body = breakMarkers(stripInvisible(content)).replace(/\n$/, "");
  const fence = fenceFor(body);
  return `${fence}${info}\n${body}\n${fence}`;
}

/**
 * An inline code span on one line. `|` is escaped because GFM splits table cells before it
 * parses code spans; `\|` inside a code span renders as `|`.
 */
export function inlineCode(text: string, options: { inTable?: boolean } = {}): string {
  let content = breakMarkers(stripInvisible(text)).replace(/\n/g, " ");
  if (options.inTable === true) content = content.replace(/\|/g, "\\|");
  if (content.trim() === "") return "` `";
  const delimiter = "`".repeat(longestRun(content, "`") + 1);
  const pad = content.startsWith("`") || content.endsWith("`") || content.startsWith(" ") ? " " : "";
  return `${delimiter}${pad}${content}${pad}${delimiter}`;
}

/** Plain text for a table cell: pipes escaped, line breaks flattened. */
export function tableText(text: string): string {
  return stripInvisible(text)
    .replace(/\|/g, "\\|")
    .replace(/\s*\n\s*/g, " ");
}
