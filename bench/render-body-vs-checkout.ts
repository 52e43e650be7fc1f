// A review body listing 100 findings whose model text is long (each past its field's budget, so
// about eight fill GitHub's 65,536 characters), rendered here and by another checkout's
// renderReviewBody (src/review/render-body.ts; the commit before a change, as
// `git worktree add /tmp/before <commit>`), side by side in one process, ROUNDS alternating rounds,
// the median CPU of each. This is the 422 fallback's body (every finding in it) of a long review.
//   node_modules/.bin/node bench/render-body-vs-checkout.ts OTHER_CHECKOUT [ROUNDS]

import fs from "node:fs";
import path from "node:path";
import { GITHUB_WORDS } from "../src/forges/github/words.ts";
import { renderReviewBody } from "../src/review/render-body.ts";
import { longFindingsPlan } from "../test/support/long-findings.ts";

const OTHER = path.resolve(process.argv[2] ?? "");
const ROUNDS = Number(process.argv[3] ?? 9);
const otherModule = path.join(OTHER, "src", "review", "render-body.ts");
if (!fs.existsSync(otherModule)) {
  process.stderr.write("usage: bench/render-body-vs-checkout.ts OTHER_CHECKOUT [ROUNDS]\n");
  process.exit(2);
}
const other = (await import(otherModule)) as { renderReviewBody: typeof renderReviewBody };

const plan = longFindingsPlan(100);
const input = {
  review: { summary: "", findings: [], notes: [] },
  plan,
  headSha: "a".repeat(40),
  checkRunId: 1,
  repository: { owner: "acme", repo: "widgets", host: "github.com" },
  words: GITHUB_WORDS,
  allInBody: true,
};
if (renderReviewBody(input) !== other.renderReviewBody(input)) throw new Error("the two bodies differ");

function cpuMs(render: typeof renderReviewBody): number {
  const before = process.cpuUsage();
  render(input);
  const used = process.cpuUsage(before);
  return (used.user + used.system) / 1000;
}
const median = (values: number[]) => values.sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const here: number[] = [];
const theirs: number[] = [];
for (let round = 0; round < ROUNDS; round++) {
  theirs.push(cpuMs(other.renderReviewBody));
  here.push(cpuMs(renderReviewBody));
}
process.stdout.write(
  `100 long findings: other ${median(theirs).toFixed(0)} ms, here ${median(here).toFixed(0)} ms, ` +
    `here / other ${(median(here) / median(theirs)).toFixed(2)}\n`,
);
