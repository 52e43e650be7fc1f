// Random mixtures of what model text can hold that matters to a Markdown renderer: syntax,
// fences, URLs, mentions and references, entities, HTML, markers, invisible characters, Unicode
// whitespace before block markers, and backtick and tilde runs around cmark-gfm's limits (a code
// span opened by more than 80 backticks never closes; a fence over 255 closes at 255).

import { allFields, type ModelFields } from "./publish-renderers.ts";

const FRAGMENTS: readonly string[] = [
  // syntax
  "*",
  "**",
  "_",
  "__",
  "~",
  "~~",
  "`",
  "``",
  "```",
  "~~~",
  "````",
  "[",
  "]",
  "](",
  "(",
  ")",
  "![",
  "<",
  ">",
  "#",
  "## ",
  "- ",
  "+ ",
  "* ",
  "1. ",
  "2) ",
  "> ",
  ">>",
  "|",
  " | ",
  "---",
  "===",
  "\\",
  "$",
  "$$",
  ":",
  "[^1]",
  "[^1]: ",
  "[x]",
  "[x]: ",
  "[x][x]",
  "<>",
  "- [ ] ",
  "\n",
  "\n\n",
  "\n```\n",
  "\n~~~\n",
  "    ",
  "\t",
  "  \n",
  // URLs and links
  "https://evil.example/a",
  "//evil.example/p.png",
  "www.evil.example",
  "https://github.com/acme/widgets/blob/main/a.ts",
  "https://github.com/acme/widgets/issues/1",
  "https://github.com/acme/other",
  "https://github.com/acme/widgets/../x",
  "https://u:p@github.com/acme/widgets",
  "mailto:a@b.example",
  "javascript:alert(1)",
  "<https://evil.example>",
  "[a](https://evil.example)",
  "[b](https://github.com/acme/widgets/blob/x)",
  "![i](//evil.example/i.png)",
  // mentions and references
  "@octocat",
  "@acme/team",
  "#12",
  "GH-3",
  "gh-4",
  "acme/other#5",
  "a@b.example",
  "x@",
  "@",
  "#",
  // entities
  "&#64;",
  "&commat;",
  "&#x23;",
  "&lt;",
  "&gt;",
  "&amp;",
  "&#96;",
  "&#",
  "&",
  // HTML and markers
  "<img src=x>",
  "<a href='//evil.example'>",
  "<details>",
  "</p>",
  "<script>",
  "<!--",
  "-->",
  "<!-- loupe:fp=0011223344556677 -->",
  "<!--loupe:review sha=",
  "<!-- loupe",
  // invisible and unusual characters
  "\u200B",
  "\u200D",
  "\u202E",
  "\u2066",
  "\u180E",
  "\u3164",
  "\uFFA0",
  "\u034F",
  "\u206A",
  "\u2028",
  "\u2029",
  "\uFE0F",
  "\u{E0041}",
  "\u00AD",
  // default-ignorable and format characters beyond the well-known ones
  "\u180B",
  "\u17B4",
  "\u{E0080}",
  "\u{E0FFF}",
  "\u{1BCA0}",
  "\u0600",
  "\u{1D173}",
  "\uFFF0",
  "\u2065",
  // whitespace JavaScript's trim() removes and GitHub keeps, before block markers
  "\u00A0",
  "\u2003",
  "\u3000",
  "\u202F",
  "\u00A02) ",
  "\u00A0- ",
  "\u00A0---",
  "\n\u00A0- ",
  "\u3000+ ",
  "\u205F1. ",
  "\u0000",
  "\r",
  "\uD83D",
  "😀",
  "é",
  "€",
  // words
  "a",
  "b",
  "word",
  "x1",
  "42",
  " ",
  " ",
  "  ",
  "GH",
  "www",
  "http",
  ":/",
];

/**
 * What a host that runs commands written in a note reads (GitLab's quick actions and references),
 * for the corpus of such a host: commands at a line's start, behind markup, escaped or as an
 * entity, indented, in every kind of fence, and the references GitLab links after Markdown.
 */
export const QUICK_ACTION_FRAGMENTS: readonly string[] = [
  "/merge",
  "/approve",
  "/close",
  "/draft",
  "/unassign @x",
  "/MERGE",
  "/clo\u017Fe",
  "\n/merge\n",
  "\n/approve",
  "\n/close ",
  "\n/draft\t",
  "\n/unassign @x\n",
  "\n  /close",
  "\n    /merge",
  "\n\t/approve",
  "\n**/draft**",
  "\n*/merge*",
  "\n~~/close~~",
  "\n[/approve](x)",
  "\n<b>/merge</b>",
  "\n\\/close",
  "\n&#47;merge",
  "\n&#x2F;approve",
  "\n```\n/merge\n```\n",
  "\n```suggestion\n/approve\n```\n",
  "\n````\n/close\n```\n````\n",
  "\n~~~\n/draft\n~~~\n",
  "\n```\n",
  "\n````\n",
  "\n>>>\n/merge\n>>>\n",
  "!12",
  "$12",
  "&12",
  "%m",
  "~l",
  "[[_TOC_]]",
];

/** Run lengths on each side of cmark-gfm's limits (80 for code spans, 255 for fences), and longer. */
const LONG_RUNS = [79, 80, 81, 82, 254, 255, 256, 257, 300] as const;
/** How often a fragment is a long run rather than one of FRAGMENTS. */
const LONG_RUN_SHARE = 0.04;

/** A backtick or tilde run of a length near a limit, sometimes as a whole line. */
function longRun(random: () => number): string {
  const run = (random() < 0.7 ? "`" : "~").repeat(LONG_RUNS[Math.floor(random() * LONG_RUNS.length)]!);
  return random() < 0.5 ? run : `\n${run}\n`;
}

export function randomText(
  random: () => number,
  maxFragments = 10,
  fragments: readonly string[] = FRAGMENTS,
): string {
  const count = Math.floor(random() * (maxFragments + 1));
  let out = "";
  for (let i = 0; i < count; i++)
    out += random() < LONG_RUN_SHARE ? longRun(random) : fragments[Math.floor(random() * fragments.length)]!;
  return out;
}

/** FRAGMENTS and the quick-action ones, for a host that runs commands in notes. */
export const GITLAB_FRAGMENTS: readonly string[] = [...FRAGMENTS, ...QUICK_ACTION_FRAGMENTS];

/** Sometimes the same text everywhere (so one trick meets every field), else each field its own. */
export function randomFields(random: () => number, fragments: readonly string[] = FRAGMENTS): ModelFields {
  const text = (max: number) => randomText(random, max, fragments);
  if (random() < 0.2) return allFields(text(10));
  // Fields are often empty, as a model leaves them: smaller documents, more cases per second.
  const some = (max: number) => (random() < 0.35 ? "" : text(max));
  return {
    title: text(6),
    explanation: some(10),
    evidence: some(10),
    recommendation: some(10),
    suggestion: some(6),
    path: text(3),
    summary: some(10),
    note: some(10),
    tool: text(3),
  };
}
