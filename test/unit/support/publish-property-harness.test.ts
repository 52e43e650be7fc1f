// The property harness can fail: renderers that publish model text as it came, or escape it
// only against micromark's view of Markdown, are caught within a few hundred generated cases,
// by cmark-gfm on every case (micromark judges only a share of them, see publish-property.ts).

import { expect, it } from "@jest/globals";
import { firstFailure } from "../../support/publish-property.ts";
import type { PublishRenderer } from "../../support/publish-renderers.ts";

const CASES = 400;

it("finds the first leaking case of a renderer that publishes model text raw", () => {
  const raw: PublishRenderer = {
    name: "raw",
    render: (fields) => ({
      markdown: `${fields.title}\n\n${fields.explanation}`,
      expectation: { linkPrefix: null, markers: [] },
      limit: 65_536,
    }),
  };
  const failure = firstFailure(raw, 1, CASES);
  expect(failure).toMatch(/^seed 1, case \d+: /);
});

it("finds a code span over cmark-gfm's 80-backtick limit, which micromark closes", () => {
  // Inert to micromark (the run closes), live to GitHub's parser (a run of 81+ never closes, so
  // the text after it is parsed as Markdown): only cmark-gfm sees the mention.
  const fence = "`".repeat(81);
  const spanned: PublishRenderer = {
    name: "long code span",
    render: () => ({
      markdown: `${fence} @octocat ${fence}\n`,
      expectation: { linkPrefix: null, markers: [] },
      limit: 65_536,
    }),
  };
  expect(firstFailure(spanned, 2, 2)).toMatch(/cmark-gfm: /);
});
