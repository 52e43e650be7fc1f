// A review body listing 100 findings whose model text is long (each past its field's budget, so
// about eight fill GitHub's 65,536 characters), rendered here and by another checkout's
// renderReviewBody (src/review/render-body.ts; the commit before a change, as
// `git worktree add /tmp/before <commit>`), side by side in one process, ROUNDS alternating rounds,
// the median CPU of each. This is the 422 fallback's body (every finding in it) of a long review.
//   node_modules/.bin/node bench/render-body-vs-checkout.ts OTHER_CHECKOUT [ROUNDS]

import { GITHUB_WORDS } from "../src/forges/github/words.ts";
import { renderReviewBody } from "../src/review/render-body.ts";
import { longFindingsPlan } from "../test/support/long-findings.ts";
import { importFromCheckout, sideBySide } from "./side-by-side.ts";

const other = await importFromCheckout<{ renderReviewBody: typeof renderReviewBody }>(
  process.argv[2],
  "src/review/render-body.ts",
  "bench/render-body-vs-checkout.ts OTHER_CHECKOUT [ROUNDS]",
);
const ROUNDS = Number(process.argv[3] ?? 9);

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

sideBySide(
  "100 long findings",
  ROUNDS,
  () => other.renderReviewBody(input),
  () => renderReviewBody(input),
);
