// Model prose becomes Markdown in work linear in its length, whatever it holds: a paragraph of
// thousands of links (every one a node of the paragraph) costs per character what a few do. The
// paragraph's pieces were once appended to one growing string that was asked, at every node, how
// it ended, which copied the whole string each time: quadratic, about half a second of a worker's
// CPU for one long reply. Judged as a ratio of CPU times measured side by side, never a duration.

import { describe, expect, it } from "@jest/globals";
import { serializeBlocks } from "../../../src/review/markdown-serialize.ts";
import { modelBlocks } from "../../../src/review/model-markdown.ts";

const REPOSITORY = { owner: "acme", repo: "widgets", host: "github.com" };
// A link into the repository (kept as a link), a foreign one (shown as code), and text between.
const UNIT =
  "see [a.ts](https://github.com/acme/widgets/blob/main/a.ts) and [x](https://evil.example/p) `c` or ";

/** The median CPU time, in ms, of rendering `units` repetitions as one paragraph. */
function cpuMs(units: number): number {
  const prose = UNIT.repeat(units);
  const times: number[] = [];
  for (let run = 0; run < 3; run++) {
    const before = process.cpuUsage();
    const markdown = serializeBlocks(modelBlocks(prose, REPOSITORY));
    const used = process.cpuUsage(before);
    expect(markdown.length).toBeGreaterThan(prose.length / 2);
    times.push((used.user + used.system) / 1000);
  }
  return times.sort((a, b) => a - b)[1]!;
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
