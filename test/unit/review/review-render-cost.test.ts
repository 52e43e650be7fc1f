// Model prose becomes Markdown in work linear in its length, whatever it holds: a paragraph of
// thousands of links (every one a node of the paragraph) costs per character what a few do. The
// paragraph's pieces were once appended to one growing string that was asked, at every node, how
// it ended, which copied the whole string each time: quadratic, about half a second of a worker's
// CPU for one long reply. A review body shows the findings that fit in GitHub's 65,536 characters
// and counts the rest: it once rendered every finding first, parsing the model text of findings it
// then left out. Judged as ratios of CPU times measured side by side, never a duration.

import { describe, expect, it } from "@jest/globals";
import { GITHUB_WORDS } from "../../../src/forges/github/words.ts";
import { serializeBlocks } from "../../../src/review/markdown-serialize.ts";
import { modelBlocks } from "../../../src/review/model-markdown.ts";
import { renderReviewBody } from "../../../src/review/render-body.ts";
import { longFindingsPlan, PROSE_UNIT } from "../../support/long-findings.ts";
import { medianCpuMs } from "../../support/median-cpu.ts";

const REPOSITORY = { owner: "acme", repo: "widgets", host: "github.com" };

/** The median CPU time, in ms, of rendering `units` repetitions as one paragraph. */
function cpuMs(units: number): number {
  const prose = PROSE_UNIT.repeat(units);
  const render = () => serializeBlocks(modelBlocks(prose, REPOSITORY));
  expect(render().length).toBeGreaterThan(prose.length / 2);
  return medianCpuMs(render);
}

describe("rendering model prose", () => {
  it("costs sixteen times as much for sixteen times the links, not the square", () => {
    cpuMs(200); // the code optimised first
    const small = cpuMs(500);
    const large = cpuMs(8_000);
    // Linear work gives 16 (less, as fixed costs amortise); the quadratic append gave hundreds.
    expect(large).toBeLessThanOrEqual(40 * small + 40);
  });
});

/** The median CPU time, in ms, of a review body listing `count` findings whose fields are long. */
function bodyCpuMs(count: number): number {
  const plan = longFindingsPlan(count);
  const render = () =>
    renderReviewBody({
      review: { summary: "", findings: [], notes: [] },
      plan,
      headSha: "a".repeat(40),
      checkRunId: 1,
      repository: REPOSITORY,
      words: GITHUB_WORDS,
    });
  expect(render()).toContain("more findings not shown");
  return medianCpuMs(render);
}

describe("a review body", () => {
  it("costs what the findings it shows cost, not what it leaves out", () => {
    bodyCpuMs(12); // the code optimised first
    // About eight such findings fill the body: twelve and a hundred show the same ones.
    const few = bodyCpuMs(12);
    const many = bodyCpuMs(100);
    // Rendering only what is shown gives about 1; rendering every finding first gave about 8.
    expect(many).toBeLessThanOrEqual(4 * few + 40);
  });
});
