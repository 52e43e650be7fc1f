// Shortening Markdown that is already written, for the last-resort clamp before a GitHub API call.
// Cutting inside a construct would publish the rest of it as live Markdown: the content of a code
// span cut before its closing backticks is read as text, links, HTML and mentions. So the cut is
// made only at a blank line, which ends every paragraph and every inline construct in it, and
// only outside what runs across blank lines: fenced code and HTML comments (Loupe's hidden
// markers; the writer emits no other HTML).

const BLANK = /^[ \t]*$/;

/** The longest prefix of `markdown` within `maxUnits` that ends where a block ends ("" if none). */
export function cutAtBlockBoundary(markdown: string, maxUnits: number): string {
  if (markdown.length <= maxUnits) return markdown;
  let best = 0;
  let fence: Fence | null = null;
  let inComment = false;
  for (let start = 0; start <= maxUnits && start < markdown.length; ) {
    const newline = markdown.indexOf("\n", start);
    const end = newline === -1 ? markdown.length : newline;
    const line = markdown.slice(start, end);
    if (fence !== null) {
      if (closesFence(line, fence)) fence = null;
    } else if (inComment) {
      inComment = !line.includes("-->");
    } else if (BLANK.test(line)) {
      best = start;
    } else {
      fence = opensFence(line);
      inComment =
        fence === null && /^ {0,3}<!--/.test(line) && !line.slice(line.indexOf("<!--") + 4).includes("-->");
    }
    start = end + 1;
  }
  return markdown.slice(0, best).trimEnd();
}

interface Fence {
  readonly char: string;
  readonly length: number;
}

const OPENING = /^ {0,3}(`{3,}|~{3,})(.*)$/;

function opensFence(line: string): Fence | null {
  const match = OPENING.exec(line);
  if (match === null) return null;
  const run = match[1]!;
  if (run[0] === "`" && match[2]!.includes("`")) return null; // not a fence: a code span
  return { char: run[0]!, length: run.length };
}

// cmark-gfm keeps a fence's length in one byte: an opening fence over 255 closes at 255.
function closesFence(line: string, fence: Fence): boolean {
  const match = /^ {0,3}(`+|~+)[ \t]*$/.exec(line);
  return match !== null && match[1]![0] === fence.char && match[1]!.length >= Math.min(fence.length, 255);
}
