// What "complete" means for a review's coverage, reason by reason: files left out by design never
// make a review incomplete; a file the budget or a failed pass kept from the model does.

import { describe, expect, it } from "@jest/globals";
import type { NotReviewedReason, ReviewCoverage } from "../../../src/domain/coverage.ts";
import { fullyCovered } from "../../../src/pipeline/reviewed-facts.ts";
import { coverageTitle } from "../../../src/report/coverage-output.ts";

const coverage = (reason: NotReviewedReason): ReviewCoverage => ({
  changedFiles: 2,
  reviewedFiles: 1,
  passes: [],
  notReviewed: [{ path: "some/file", reason }],
});

describe("fullyCovered", () => {
  it.each<NotReviewedReason>([
    "excluded",
    "generated",
    "vendored",
    "no_diff",
    "removed",
    "described",
    "binary",
    "too_large",
  ])("a file left out as %s leaves the review complete, and is no cut in the title", (reason) => {
    expect(fullyCovered(coverage(reason))).toBe(true);
    expect(coverageTitle(coverage(reason))).toBe("");
  });

  it.each<NotReviewedReason>(["budget", "pass_failed"])(
    "a file left out as %s makes it incomplete, and the title counts it",
    (reason) => {
      expect(fullyCovered(coverage(reason))).toBe(false);
      expect(coverageTitle(coverage(reason))).toBe(" · 1 of 2 files reviewed");
    },
  );
});
