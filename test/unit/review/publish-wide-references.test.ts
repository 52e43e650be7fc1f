// Model text on a host whose renderer links more than GitHub's (GitLab: `!12`, `$12`, `&12`,
// `%name`, `~name`, `*iteration:`, `[vulnerability:…]`, `[[_TOC_]]`, inline diff, `/quick actions`)
// is written with a look-alike for each such sigil, judged on the HTML of Debian's cmark-gfm (the
// parser GitLab's Markdown builds on): no such reference in text outside code, no line of the raw
// body starting with `/` outside code, no diagram or math fence, no link to a project's /-/ pages
// but its code's. On GitHub (no `references`) the same input is written as before.

import { describe, expect, it } from "@jest/globals";
import { GITHUB_WORDS } from "../../../src/forges/github/words.ts";
import { gitLabWords } from "../../../src/forges/gitlab/words.ts";
import { renderInlineComment } from "../../../src/review/render-inline.ts";
import { sanitizeMarkdown } from "../../../src/review/sanitize.ts";
import { cmarkJudges, cmarkOracle } from "../../support/gfm-oracle.ts";

const GITLAB = { owner: "team", repo: "values", host: "gitlab.example.com", references: "wide" as const };
const GITHUB = { owner: "team", repo: "values", host: "github.com" };

const HOSTILE = [
  "See !12 and team/other!3 before merging.",
  'Snippet $45, epic &7, milestone %v1.0 and %"Release 2", label ~bug and ~"needs review".',
  "Iteration *iteration:4 and [vulnerability:9] and [contact:a@example.com].",
  "[[_TOC_]]",
  "[TOC]",
  "Inline diff {+ added +} and [- removed -].",
  "/merge\n/approve\n  /label ~security",
  "A [merge request](https://gitlab.example.com/team/values/-/merge_requests/1) and [the code](https://gitlab.example.com/team/values/-/blob/main/a.ts).",
  "```mermaid\ngraph TD; A-->B\n```",
  "~~~plantuml\n@startuml\nBob -> Alice\n@enduml\n~~~",
  "```math\na^2\n```",
];

/** Text outside <code> and <pre> in cmark-gfm's HTML, entities decoded enough for the patterns. */
function textOutsideCode(html: string): string {
  return html
    .replace(/<pre[\s\S]*?<\/pre>/g, " ")
    .replace(/<code>[\s\S]*?<\/code>/g, " ")
    .replace(/<[^>]+>/g, " ")
    .replace(/&quot;/g, '"')
    .replace(/&amp;/g, "&");
}

const REFERENCE =
  /(?:^|[^\w])(?:[!$&]\d|[%~][\w"]|\*iteration:|\[vulnerability:|\[contact:|\[\[_toc_\]\]|\[toc\]|\{[+-]|\[-)/i;

describe("model text on a host with wide references", () => {
  it("leaves no reference, quick action, diagram or project page link that GitLab would act on", () => {
    cmarkJudges();
    for (const input of HOSTILE) {
      const markdown = sanitizeMarkdown(input, { ...GITLAB, maxLength: 10_000 });
      const html = cmarkOracle(markdown);
      expect([input, textOutsideCode(html).match(REFERENCE)?.[0] ?? null]).toEqual([input, null]);
      const rawLines = markdown.split("\n").filter((line) => !/^\s{4}|^```|^~~~/.test(line));
      expect(rawLines.filter((line) => line.startsWith("/"))).toEqual([]);
      expect(html).not.toMatch(/language-(?:mermaid|plantuml|math)/);
      expect(html).not.toContain('/-/merge_requests/1"');
    }
    const links = cmarkOracle(sanitizeMarkdown(HOSTILE[7]!, { ...GITLAB, maxLength: 10_000 }));
    expect(links).toContain('href="https://gitlab.example.com/team/values/-/blob/main/a.ts"');
  });

  it("neutralises a finding's title too, on GitLab only", () => {
    const finding = {
      severity: "high" as const,
      title: "Merging !12 breaks ~backend",
      explanation: "x",
      path: "a.ts",
      line: 1,
      evidence: "",
      recommendation: "",
    };
    const anchor = { path: "a.ts", line: 1 } as Parameters<typeof renderInlineComment>[1];
    const gitlab = textOutsideCode(
      cmarkOracle(
        renderInlineComment(finding, anchor, "0123456789abcdef", false, GITLAB, gitLabWords("loupe-bot")),
      ),
    );
    expect(gitlab).toContain("Merging ！12 breaks ～backend");
    const github = textOutsideCode(
      cmarkOracle(renderInlineComment(finding, anchor, "0123456789abcdef", false, GITHUB, GITHUB_WORDS)),
    );
    expect(github).toContain("Merging !12 breaks ~backend");
  });

  it("writes the same input as before on GitHub", () => {
    const markdown = sanitizeMarkdown(HOSTILE[1]!, { ...GITHUB, maxLength: 10_000 });
    expect(markdown).toContain("%v1.0");
    expect(markdown).toContain("\\~bug");
  });
});
