// A note on a host that runs commands written in it (GitLab's quick actions: `/merge`, `/approve`,
// `/close`… run as the note's author, Loupe's bot, when a note or draft is created, published or
// edited) made so that no line of it is one. Two generations of GitLab decide which lines count:
//
//  - the regex era (older releases, still widely self-managed): a line whose first character is `/`
//    followed by a command's name, anywhere, unless the regexp's scan finds it inside a block that
//    opens with a line starting ``` and closes with a line that is exactly ```. That scan also pairs
//    every backtick of the text as "inline code" (escaped ones included), so a plain fence after an
//    odd backtick is read from its second character and protects nothing: no fence is trusted, and
//    no line of any kind may start with `/` and a word;
//  - the markdown era (current releases): a line starting with `/` (after spaces) in a top-level
//    paragraph of the CommonMark tree, its inline markup and escapes read away.
//
// So code whose lines GitLab could read as a command, and code that a plain ``` fence cannot hold
// (a ~~~ or a longer fence protects nothing in the regex era), is written as an indented block
// (four spaces: no line starts with `/`, and CommonMark reads it as code); every other line that
// starts with a `/` once spaces, emphasis and link brackets are read away gets U+2215 (∕) instead.
// Indented code and the lines of a kept fence are left as they are.

import { fenceFor } from "./code-fence.ts";

/** A line the regex era would run: `/`, a word, then a space, or only whitespace to its end. */
const COMMAND_LINE = /^\/[\p{L}\p{N}_]+(?: |\s*$)/u;
/**
 * What starts a paragraph line before its text as the markdown era reads it: spaces, emphasis and
 * strikethrough delimiters, link and image brackets, inline HTML tags; then a slash, written plain,
 * escaped, or as an entity.
 */
const LEADING_SLASH = /^((?:[ \t]|[*_~[]|!\[|<[A-Za-z/!?][^>\n]*>)*)(?:\\?\/|&#0*47;|&#x0*2f;|&sol;)/i;
const FENCE_OPEN = /^( {0,3})(`{3,}|~{3,})(.*)$/;
const SLASH = "\u2215";

/** Whether GitLab's regex era could read this line of code as a command. */
export function commandLike(line: string): boolean {
  return COMMAND_LINE.test(line);
}

/** Whether `content` can sit in a plain ``` fence on such a host: no line closes it or is a command. */
export function plainFenceHolds(content: string): boolean {
  return fenceFor(content, "`") === "```" && !content.split("\n").some(commandLike);
}

interface Fence {
  readonly open: string;
  readonly char: string;
  readonly length: number;
  readonly content: string[];
  close: string | null;
}

export function inertCommands(markdown: string): string {
  const out: string[] = [];
  let fence: Fence | null = null;
  // What the last line left open: indented code can start only where no paragraph goes on.
  let after: "text" | "break" = "break";
  for (const line of markdown.replace(/\r\n?/g, "\n").split("\n")) {
    if (fence !== null) {
      if (closesBackticks(line, fence.length, fence.char)) {
        fence.close = line;
        writeFence(out, fence);
        fence = null;
        after = "break";
      } else fence.content.push(line);
      continue;
    }
    const open = FENCE_OPEN.exec(line);
    if (open !== null && !(open[2]![0] === "`" && open[3]!.includes("`"))) {
      fence = { open: line, char: open[2]![0]!, length: open[2]!.length, content: [], close: null };
      continue;
    }
    if (line.trim() === "" || (after === "break" && columns(line) >= 4)) {
      out.push(line);
      after = "break";
      continue;
    }
    out.push(line.replace(LEADING_SLASH, (_all, lead: string) => `${lead}${SLASH}`));
    after = "text";
  }
  if (fence !== null) writeFence(out, fence);
  return out.join("\n");
}

/** A fence stays only as a plain ``` fence, closed by exactly ```, holding no command-like line. */
function writeFence(out: string[], fence: Fence): void {
  const plain =
    fence.char === "`" &&
    fence.length === 3 &&
    fence.open.startsWith("```") &&
    fence.close === "```" &&
    fence.content.every((line) => !commandLike(line));
  if (plain) {
    out.push(fence.open, ...fence.content, "```");
    return;
  }
  if (fence.content.length === 0) return;
  if (out.length > 0 && out.at(-1)!.trim() !== "") out.push("");
  out.push(...fence.content.map((line) => (line.trim() === "" ? "" : `    ${line}`)));
  // The indented block ends at the next unindented line; a blank line keeps it apart from it.
  out.push("");
}

/** A CommonMark closing fence: up to 3 spaces, a run of `char` at least `length` long, spaces. */
function closesBackticks(line: string, length: number, char = "`"): boolean {
  const match = /^ {0,3}(`+|~+)[ \t]*$/.exec(line);
  return match !== null && match[1]![0] === char && match[1]!.length >= length;
}

/** The column a line's text starts at, tabs to the next multiple of 4. */
function columns(line: string): number {
  let column = 0;
  for (const char of line) {
    if (char === " ") column++;
    else if (char === "\t") column += 4 - (column % 4);
    else break;
  }
  return column;
}
