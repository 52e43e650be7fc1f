// Splits Markdown into prose and code, conservatively: a piece counts as code only where GitHub
// is certain to agree (so text GitHub would render as prose is never left un-neutralised).
// - Fences open only at column 0 at top level. An indented fence may sit in a list item whose
//   end closes it early, which would turn "code" into live prose; those stay prose.
// - Fences close as CommonMark closes them (up to 3 spaces, same character, at least as long).
// - Code spans must open and close on one line and contain no `|` (GFM splits table cells
//   before code spans). The sanitiser turns every other backtick in prose into an entity, so in
//   its output GitHub pairs backticks exactly as this scanner did.

export type Segment =
  | { readonly kind: "prose"; readonly text: string }
  | {
      readonly kind: "fence";
      readonly open: string;
      readonly lines: readonly string[];
      readonly close: string | null;
    }
  | { readonly kind: "code"; readonly text: string };

const OPEN = /^(`{3,}|~{3,})(.*)$/;

export function splitSegments(text: string): Segment[] {
  const segments: Segment[] = [];
  const lines = text.split("\n");
  let prose: string[] = [];
  const flush = () => {
    if (prose.length > 0) segments.push(...splitInline(prose.join("\n")));
    prose = [];
  };
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    const open = OPEN.exec(line);
    if (open === null || (open[1]!.startsWith("`") && open[2]!.includes("`"))) {
      prose.push(line);
      continue;
    }
    // The newline before the fence belongs to the prose before it.
    if (prose.length > 0) prose.push("");
    flush();
    const marker = open[1]!;
    const closing = new RegExp(`^ {0,3}${marker[0] === "`" ? "`" : "~"}{${marker.length},}[ \\t]*$`);
    const body: string[] = [];
    let close: string | null = null;
    let j = i + 1;
    for (; j < lines.length; j++) {
      if (closing.test(lines[j]!)) {
        close = lines[j]!;
        break;
      }
      body.push(lines[j]!);
    }
    segments.push({ kind: "fence", open: line, lines: body, close });
    i = j;
    // The newline after the closing fence starts the following prose.
    if (j + 1 < lines.length) prose.push("");
  }
  flush();
  return segments.filter((s) => s.kind !== "prose" || s.text !== "");
}

function splitInline(text: string): Segment[] {
  const out: Segment[] = [];
  let proseStart = 0;
  let i = 0;
  while (i < text.length) {
    if (text[i] !== "`") {
      i += text[i] === "\\" ? 2 : 1; // a backslash escapes the next character in prose
      continue;
    }
    let runEnd = i;
    while (text[runEnd] === "`") runEnd++;
    const runLength = runEnd - i;
    const closeAt = findClosingRun(text, runEnd, runLength);
    if (closeAt === -1) {
      i = runEnd;
      continue;
    }
    if (i > proseStart) out.push({ kind: "prose", text: text.slice(proseStart, i) });
    out.push({ kind: "code", text: text.slice(i, closeAt + runLength) });
    i = closeAt + runLength;
    proseStart = i;
  }
  if (proseStart < text.length) out.push({ kind: "prose", text: text.slice(proseStart) });
  return out;
}

function findClosingRun(text: string, from: number, length: number): number {
  let k = from;
  while (k < text.length) {
    const c = text[k];
    if (c === "\n" || c === "|") return -1;
    if (c !== "`") {
      k++;
      continue;
    }
    let end = k;
    while (text[end] === "`") end++;
    if (end - k === length) return k;
    k = end;
  }
  return -1;
}
