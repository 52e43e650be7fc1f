// No note Loupe sends to GitLab holds a line GitLab would run as a quick action, judged the two
// ways GitLab judges (gitlab-extractor.ts: its Extractor's regexp in both of its forms, and
// cmark-gfm's top-level paragraphs) over whole notes: the outgoing step on hand-written attacks,
// then every GitLab note renderer over the generated hostile corpus with quick-action fragments.

import { describe, expect, it } from "@jest/globals";
import { GITHUB_WORDS } from "../../../../src/forges/github/words.ts";
import { outgoing } from "../../../../src/forges/gitlab/gitlab-api.ts";
import { gitLabWords } from "../../../../src/forges/gitlab/words.ts";
import { inertCommands, plainFenceHolds } from "../../../../src/review/inert-commands.ts";
import { renderInlineComment } from "../../../../src/review/render-inline.ts";
import { cmarkOracle } from "../../../support/gfm-oracle.ts";
import { markdownEraCommands, regexEraCommands } from "../../../support/gitlab-extractor.ts";
import { GITLAB_NOTE_RENDERERS, GITLAB_REPOSITORY } from "../../../support/gitlab-note-renderers.ts";
import { GITLAB_FRAGMENTS, randomFields } from "../../../support/hostile-markdown.ts";
import { PROPERTY_RUNS, propertySeed, REPLAY } from "../../../support/property-runs.ts";
import { seededRandom } from "../../../support/seeded-random.ts";

const live = (notes: readonly string[]) => {
  const markdown = markdownEraCommands(notes);
  return notes.map((note, i) => [...regexEraCommands(note), ...markdown[i]!]);
};

const ATTACKS = [
  "Fine.\n/merge\n/approve\n  /close\n/draft\n/unassign @x",
  "**/merge**\n*/approve*\n~~/close~~\n[/draft](x)\n<b>/merge</b>\n\\/approve\n&#47;close\n&#x2F;draft",
  // A plain fence after an odd backtick: the regexp pairs that backtick with the fence's first one.
  "A lone \\` here.\n\n```\nx = `y\n/merge\n```",
  "````\n```\n/close\n````",
  "~~~\n/draft\n~~~",
  "One \\` tick.\n\n```suggestion:-1+0\nx = `y\n/approve\n```",
  "Unclosed\n```\n/merge",
  "> quoted\n/close",
  "a\r/merge\rb",
];

describe("the outgoing step of every GitLab note", () => {
  it("leaves no quick action in either era, where GitLab's regexp and cmark-gfm found one before", () => {
    const before = live(ATTACKS);
    for (const [i, commands] of before.entries())
      expect([ATTACKS[i], commands.length > 0]).toEqual([ATTACKS[i], true]);
    const after = live(ATTACKS.map(inertCommands));
    expect(after.map((commands, i) => [ATTACKS[i], commands])).toEqual(ATTACKS.map((a) => [a, []]));
  });

  it("finds commands by GitLab's regexp alone on any line start, after a Unicode line separator too", () => {
    expect(regexEraCommands("Fine.\n/merge\n/approve\n  /close\n/draft\n/unassign @x")).toEqual([
      "/merge",
      "/approve",
      "/draft",
      "/unassign @x",
    ]);
    expect(regexEraCommands("/close")).toEqual(["/close"]);
    expect(regexEraCommands("a\u2028/merge")).toEqual(["/merge"]);
    expect(regexEraCommands("no command /merge here\n  /close")).toEqual([]);
  });

  it("keeps a plain fence without a command-like line, and indented code, as they are", () => {
    const kept =
      "Text.\n\n```ts\nconst a = 1;\n// /merge in a comment\n  /close indented\n```\n\n    /approve in indented code";
    expect(inertCommands(kept)).toBe(kept);
    expect(live([kept])).toEqual([[]]);
  });

  it("writes code no plain fence protects as an indented block, its lines unchanged", () => {
    expect(inertCommands("Before.\n~~~\n/draft\n```\n~~~\nAfter.")).toBe(
      "Before.\n\n    /draft\n    ```\n\nAfter.",
    );
  });

  it("applies to a note's, a draft's and a status's text, and leaves other fields alone", () => {
    const sent = outgoing({ note: "/merge", body: "x\n/close", description: "/approve", name: "/draft" });
    expect(sent).toEqual({
      note: "\u2215merge",
      body: "x\n\u2215close",
      description: "\u2215approve",
      name: "/draft",
    });
  });

  it("offers a suggestion on GitLab only when a plain fence can hold it", () => {
    const finding = {
      severity: "high" as const,
      title: "t",
      explanation: "x",
      path: "a.ts",
      line: 1,
      evidence: "",
      recommendation: "",
      suggestion: "a\n/merge\nb",
    };
    const anchor = {
      kind: "inline" as const,
      path: "a.ts",
      line: 1,
      side: "RIGHT" as const,
      fullRange: true,
    };
    expect(plainFenceHolds("a\nb")).toBe(true);
    expect(plainFenceHolds("a\n```\nb")).toBe(false);
    const gitlab = renderInlineComment(
      finding,
      anchor,
      "0123456789abcdef",
      true,
      GITLAB_REPOSITORY,
      gitLabWords("loupe-bot"),
    );
    expect(gitlab).not.toContain("```suggestion");
    expect(gitlab).toContain("could end its block or run as a quick action");
    const github = renderInlineComment(
      finding,
      anchor,
      "0123456789abcdef",
      true,
      { ...GITLAB_REPOSITORY, references: undefined },
      GITHUB_WORDS,
    );
    expect(github).toContain("```suggestion\na\n/merge\nb\n```");
  });
});

describe("model text in lists and disputes on GitLab", () => {
  const REFERENCE = /(?:^|[^\w])(?:[!$&]\d|[%~][\w"]|\[\[_toc_\]\])/i;
  const textOutsideCode = (html: string) =>
    html
      .replace(/<pre[\s\S]*?<\/pre>/g, " ")
      .replace(/<code>[\s\S]*?<\/code>/g, " ")
      .replace(/<[^>]+>/g, " ");
  const fields = {
    title: "Merging !12\n/close ~backend",
    explanation: "x",
    evidence: "e",
    recommendation: "",
    suggestion: "",
    path: "a.ts",
    summary: "",
    note: "Refuted by $12 and &12\n/approve %m [[_TOC_]]",
    tool: "t",
  };

  it.each(GITLAB_NOTE_RENDERERS.map((r) => [r.name, r] as const))(
    "%s: titles and reasons on one line, no GitLab reference",
    (name, renderer) => {
      const note = renderer.render(fields);
      expect(textOutsideCode(cmarkOracle(note)).match(REFERENCE)).toBeNull();
      const lines = note.split("\n");
      const titles = lines.filter((line) => line.includes("Merging"));
      expect(titles.length > 0).toBe(!name.startsWith("reply"));
      expect(titles.filter((line) => !line.includes("/close \uFF5Ebackend"))).toEqual([]);
      const reasons = lines.filter(
        (line) => line.includes("Verifier") || line.startsWith("Disputed") || line.startsWith("Refuted:"),
      );
      expect(reasons.filter((line) => !line.includes("/approve \uFF05m"))).toEqual([]);
    },
  );
});

const BATCH = 250;

describe.each(GITLAB_NOTE_RENDERERS.map((r) => [r.name, r] as const))("%s", (name, renderer) => {
  it(`holds no quick action for ${PROPERTY_RUNS} generated inputs with quick-action fragments`, () => {
    const random = seededRandom(propertySeed(0x9a7 + name.length));
    for (let first = 0; first < PROPERTY_RUNS; first += BATCH) {
      const cases = Array.from({ length: Math.min(BATCH, PROPERTY_RUNS - first) }, () =>
        randomFields(random, GITLAB_FRAGMENTS),
      );
      const notes = cases.map((fields) => renderer.render(fields));
      const found = live(notes).findIndex((commands) => commands.length > 0);
      if (found >= 0)
        throw new Error(
          `case ${first + found} (${REPLAY}): ${JSON.stringify(live([notes[found]!])[0])}\n${JSON.stringify(cases[found])}\n${notes[found]}`,
        );
    }
  });
});
