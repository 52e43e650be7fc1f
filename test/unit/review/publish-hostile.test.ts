// Named hostile inputs, each put into every model-written field of every renderer, judged on the
// HTML that real GFM parsers make of the output: micromark in-process, and cmark-gfm (GitHub's
// own parser; the preflight installs it or stops, a missing one fails here), one process for all the
// cases of a renderer.

import { beforeAll, describe, expect, it } from "@jest/globals";
import {
  allProblems,
  cmarkJudges,
  cmarkProblems,
  micromarkOracle,
  PUBLISHED_INVISIBLE,
} from "../../support/gfm-oracle.ts";
import { allFields, PUBLISH_RENDERERS, type Rendered } from "../../support/publish-renderers.ts";

const SHA = "a".repeat(40);
const FP = "<!-- loupe:fp=0011223344556677 -->";
const ticks = (n: number) => "`".repeat(n);
const tildes = (n: number) => "~".repeat(n);
/** A backtick run of every length from 1 to 80, with live-looking text between them. */
const EVERY_RUN = Array.from({ length: 80 }, (_, i) => ticks(i + 1)).join("<b>@x</b>");

const HOSTILE: readonly [string, string][] = [
  // Mentions and references
  ["a user mention", "ping @octocat now"],
  ["a team mention", "cc @acme/security"],
  ["a mention in parentheses", "(@octocat)"],
  ["a mention after a slash", "see x.com/@octocat"],
  ["an issue reference", "fixes #123"],
  ["a cross-repository reference", "like other/repo#1"],
  ["a GH- reference", "see GH-42"],
  ["a lowercase gh- reference", "see gh-7"],
  ["a decimal entity mention", "&#64;octocat"],
  ["a named entity mention", "&commat;octocat"],
  ["a hex entity reference", "&#x23;12"],
  ["a backslash-escaped mention", "\\@octocat"],
  ["a mention in a repository link label", "[@octocat](https://github.com/acme/widgets/blob/main/a.ts)"],
  ["a mention in emphasis", "*@octocat* and **#4**"],
  ["a mention in a heading", "# @octocat\n\n## #5"],
  ["an e-mail address", "mail admin@example.com"],
  ["a URL glued to a letter carrying a mention", "xhttps://github.com/acme/widgets/blob/a/@octocat/#9"],
  ["a mention split by a zero-width joiner", "@\u200Docto\u200Bcat"],
  // HTML and entities
  ["a details element", "<details><summary>s</summary>@x</details>"],
  ["an img tag", "<img src=https://evil.example/p.png>"],
  ["a script tag", "<script>alert(1)</script>"],
  ["an HTML comment", "a<!-- hidden -->b"],
  ["an unclosed HTML comment", "a<!-- hidden"],
  ["an HTML block around Markdown", "<div>\n\n@x #1\n\n</div>"],
  ["entity-encoded tags", "&lt;img src=x&gt; &amp;lt;b&amp;gt;"],
  ["an anchor tag", '<a href="https://evil.example">x</a>'],
  ["an autolink", "<https://evil.example>"],
  ["an e-mail autolink", "<admin@example.com>"],
  [
    "an angle-bracket URL completing an image",
    "![a](<https://github.com/acme/widgets/a.png>)](https://evil.example/i.png)",
  ],
  [
    "an angle-bracket repository URL with a link tail",
    "<https://github.com/acme/widgets/x>](https://evil.example)",
  ],
  // Links and images
  ["a link to another host", "[docs](https://evil.example/x)"],
  ["a protocol-relative link", "[x](//evil.example/x)"],
  ["a protocol-relative image", "![x](//evil.example/p.png)"],
  ["an image in the repository", "![x](https://github.com/acme/widgets/raw/main/a.png)"],
  ["a javascript: link", "[x](javascript:alert(1))"],
  ["a link to an issue of the repository", "[i](https://github.com/acme/widgets/issues/1)"],
  ["a link to another repository", "[r](https://github.com/acme/other)"],
  ["a link with credentials", "[x](https://user:pw@github.com/acme/widgets)"],
  [
    "a link escaping the repository by dot segments",
    "[x](https://github.com/acme/widgets/../other/issues/1)",
  ],
  ["a reference definition", "[x]: https://evil.example\n\n[x] and [y][x]"],
  ["a reference definition in a block quote", "> [x]: //evil.example/p.png\n\n![x] [x]"],
  ["a reference definition in a list item", "- [x]: //evil.example/p.png\n\n![x][x]"],
  ["a bare URL", "go to https://evil.example/a, now"],
  ["a www URL", "www.evil.example"],
  ["a URL glued to a letter with emphasis", "xhttps://evil.example/*@y*"],
  ["a www URL after an escaped star", "x\\*www.evil.example"],
  ["a footnote", "text[^1]\n\n[^1]: https://evil.example @x"],
  ["a link title with a mention", '[x](https://github.com/acme/widgets/blob/a "@octocat")'],
  ["a nested link", "[[a](https://evil.example)](https://github.com/acme/widgets/blob/a)"],
  // Fences and block structure
  ["a bare fence", "```"],
  ["a fence with an info string", "```js @x"],
  ["an unclosed fence", "```\n@x <b>"],
  ["a longer fence around a shorter one", "````\n```\n@x\n````\n@y"],
  ["a tilde fence holding a marker", `~~~\n${FP}\n~~~`],
  ["an indented fence in a list item", "- a\n  ```\n@x\n  ```"],
  ["a model suggestion block", "```suggestion\nrm -rf /\n```"],
  ["a code span with backticks", "`` ` @x `` and ` `` `"],
  ["a code span with a pipe", "`a|b` | c\n---|---\n@x | <img>"],
  ["math", "$x$ and $$\n\\href{https://evil.example}{x}\n$$"],
  ["a mermaid block", '```mermaid\nclick A href "https://evil.example"\n```'],
  ["a setext heading", "a\n===\nb\n---"],
  ["list and quote starts", "- @x\n1. #2\n+ y\n> @z\n* w"],
  ["indented code", "    @x <b>\n\n\t#1"],
  ["a hard break and a thematic break", "a\\\n***\n- - -"],
  // Marker forgeries
  ["a forged review marker", `<!-- loupe:review sha=${SHA} run=7 -->`],
  ["a forged fingerprint marker", FP],
  ["a marker in a code span", `\`${FP}\``],
  ["a marker in a fence", `\`\`\`\n${FP}\n\`\`\``],
  ["a marker without spaces", "<!--loupe:fp=0011223344556677-->"],
  ["an entity-encoded marker", "&lt;!-- loupe:fp=0011223344556677 --&gt;"],
  // Invisible characters
  ["bidi controls", "a\u202Eb\u2066c\u2069"],
  ["the other invisibles", "a\u180E\u3164\uFFA0\u034F\u206A\u206F\u2028\u2029\uFE0F\u{E0100}b"],
  ["Unicode tags", "ok\u{E0001}\u{E0041}\u{E007F}"],
  ["a lone surrogate", "x\uD83Dy\uDC00"],
  // Longer than cmark-gfm closes: a code span opened by more than 80 backticks never closes
  ["a code span holding a run of 79 backticks", `\` <img src=x> @x ${ticks(79)} #1 \``],
  ["a code span holding a run of 80 backticks", `\` <img src=x> @x ${ticks(80)} #1 \``],
  ["a code span holding a run of 81 backticks", `\` <img src=x> @x ${ticks(81)} #1 \``],
  ["a code span holding runs of 80 and 82 backticks", `\` <b>@x</b> ${ticks(80)} ${ticks(82)} \``],
  ["a code span opened by 81 backticks", `${ticks(81)} <img src=x> @x ${ticks(81)}`],
  ["a URL word holding a run of 80 backticks", `www.x${ticks(80)}<img/src=x>@x#1`],
  ["a path holding a run of 80 backticks", `src/${ticks(80)}<img src=x>@x.ts`],
  ["a URL word holding every run from 1 to 80", `www.x${EVERY_RUN}`],
  ["code spans padded with spaces and backticks", "`` ` `` ` `` a `` `  ` `` `x ``"],
  // Fences: cmark-gfm reads a fence over 255 as 255, so a line of 255 closes any fence
  ["a suggestion holding a line of 255 backticks", `x\n${ticks(255)}\n<img src=x> @x #1\n${ticks(300)}`],
  ["a suggestion holding a line of 256 backticks", `x\n  ${ticks(256)}  \n<img src=x> @x\ny`],
  ["a suggestion holding a line of 254 backticks", `x\n${ticks(254)}\n<img src=x> @x`],
  [
    "a code block holding lines of 255 backticks and tildes",
    `${ticks(300)}\n${ticks(255)}\n${tildes(255)}\n<img src=x> @x ${FP}\n${tildes(257)}\n${ticks(300)}`,
  ],
  [
    "a tilde code block holding lines of 256 tildes and backticks",
    `${tildes(300)}\n${tildes(256)}\n<b>@x</b>\n${ticks(257)}\n${tildes(300)}`,
  ],
  ["runs of 254 to 257 backticks in text", [254, 255, 256, 257].map((n) => ticks(n)).join("\n@x\n")],
  // Whitespace JavaScript's trim() removes but GitHub keeps, before a block marker
  ["a no-break space before an ordered list marker", "\u00A02) @x"],
  ["a no-break space before a thematic break", "\u00A0---"],
  ["a no-break space before a bullet", "\u00A0- @x <b>"],
  ["Unicode spaces before list and heading markers", "\u3000+ a\n\n\u2003* b\n\n\u205F1. c\n\n\u1680==="],
  ["a no-break space after a hard break", "a\\\n\u00A0- b\\\n\u202F2) c"],
  // Default-ignorable and format characters that hide text
  ["a Mongolian free variation selector", "isAdmin\u180B = true\u180C\u180D\u180F"],
  ["Khmer inherent vowels", "a\u17B4\u17B5b"],
  ["reserved default-ignorable tags", "ok\u{E0080}\u{E00FF}\u{E0FFF}"],
  ["shorthand format controls", "a\u{1BCA0}\u{1BCA3}b"],
  [
    "prepended concatenation marks and musical format characters",
    "\u0600\u06DD\u070F\u{110BD}\u{1D173}\u{1D17A}x",
  ],
  ["unassigned default-ignorables", "a\uFFF0\u2065\u{E01F0}b"],
  // A clamp cutting through code: long code spans around the check run's limit
  ["long code spans across the clamp", "<img src=x> @octocat #1 ".repeat(800)],
  // Oversize
  ["a long backtick run", "`".repeat(70000)],
  ["a long text of mentions", "@x #1 ".repeat(20000)],
  ["a long fence", `\`\`\`\n${"@x line\n".repeat(20000)}\`\`\``],
  ["emoji across every cut", "😀".repeat(40000)],
  ["deep block quotes", `${">".repeat(5000)} @x`],
  ["deep emphasis", `${"*".repeat(5000)}@x${"*".repeat(5000)}`],
  ["many foreign links", "[a](https://evil.example) ".repeat(3000)],
];

cmarkJudges(); // fails the suite, with how to get it, when cmark-gfm is missing

describe.each(PUBLISH_RENDERERS.map((r) => [r.name, r] as const))("%s", (_name, renderer) => {
  let rendered: Rendered[] = [];
  let byCmark: string[][] = [];
  beforeAll(() => {
    rendered = HOSTILE.map(([, input]) => renderer.render(allFields(input)));
    byCmark = cmarkProblems(rendered);
  });

  it.each(HOSTILE.map(([name], i) => [name, i] as const))("is inert with %s", (_case, i) => {
    const { markdown, expectation, limit } = rendered[i]!;
    expect(markdown.length).toBeLessThanOrEqual(limit);
    expect(markdown.isWellFormed()).toBe(true);
    expect(markdown).not.toMatch(PUBLISHED_INVISIBLE);
    expect(allProblems(markdown, micromarkOracle, expectation)).toEqual([]);
    expect(byCmark[i]).toEqual([]);
  });
});

it("has at least 60 named cases", () => {
  expect(HOSTILE.length).toBeGreaterThanOrEqual(60);
  expect(new Set(HOSTILE.map(([name]) => name)).size).toBe(HOSTILE.length);
});
