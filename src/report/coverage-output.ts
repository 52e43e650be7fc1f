// The check run's account of a review in passes: how much of the change it covered, each pass
// with its files, how it ended, what it found and spent, and every changed file no finished pass
// covered, grouped by why. Paths come from the repository, so they are shown only in code spans,
// redacted; a group lists its first paths and counts the rest, to stay within GitHub's limit.

import type { NotReviewedReason, ReviewCoverage } from "../domain/coverage.ts";
import { NOT_REVIEWED_SENTENCES, STILL_OWED } from "../domain/coverage.ts";
import type { ForgeWords } from "../domain/forge-words.ts";
import { terminationSentence } from "../domain/outcome.ts";
import { redactSecrets } from "../domain/redact.ts";
import { cutCodePoints } from "../domain/text.ts";
import { type Block, code, heading, type Inline, paragraph, strong, text } from "../review/markdown-tree.ts";

const PATHS_SHOWN = 10;
const PATH_CHARS = 120;

const pathSpan = (path: string): Inline => code(cutCodePoints(redactSecrets(path), PATH_CHARS));

/** The title's addition when files that should have been reviewed were not: never a silent cut. */
export function coverageTitle(coverage: ReviewCoverage | undefined): string {
  if (coverage === undefined) return "";
  const expected = coverage.notReviewed.filter((f) => STILL_OWED[f.reason]);
  if (expected.length === 0) return "";
  return ` · ${coverage.reviewedFiles} of ${coverage.reviewedFiles + expected.length} files reviewed`;
}

export function renderCoverage(coverage: ReviewCoverage, words: ForgeWords): Block[] {
  const { passes } = coverage;
  // One loop: no passes to account for, only the files it left out or saw described.
  if (passes.length <= 1 && coverage.reviewedFiles > 0)
    return [heading(3, text("Coverage")), ...notReviewed(coverage)];
  const ran = passes.filter((p) => p.ended !== null);
  const tokens = passes.reduce((sum, p) => sum + p.tokens, 0);
  const blocks: Block[] = [
    heading(3, text("Coverage")),
    paragraph(
      strong(text(`${coverage.reviewedFiles} of ${coverage.changedFiles} changed files reviewed`)),
      text(
        ` in ${passes.length} passes (${ran.length} ran). Each pass reviewed its own files with its share ` +
          "of the review's budget; the findings of all the passes that finished are merged into one review.",
      ),
    ),
  ];
  const withReview = ran.filter((p) => p.ended === "final_review").length;
  if (tokens > 0 && coverage.reviewedFiles === 0) {
    const why = [...new Set(ran.map((p) => p.ended!))].map((r) => `${r}: ${terminationSentence(r, words)}`);
    blocks.push(
      paragraph(
        text(`${tokens} tokens were spent and no pass returned a review, so nothing could be published. `),
      ),
      paragraph(text(`Why: ${why.join(" ")}`)),
    );
  } else if (withReview < passes.length) {
    blocks.push(
      paragraph(
        text(
          `${tokens} tokens bought the findings of ${withReview} of ${passes.length} passes, published below; ` +
            "the files of the other passes were not covered (see Not reviewed).",
        ),
      ),
    );
  }
  blocks.push(passTable(coverage), ...notReviewed(coverage));
  return blocks;
}

function passTable(coverage: ReviewCoverage): Block {
  return {
    type: "table",
    align: ["right", "right", "right", "left", "left", "right", "right"],
    header: ["Pass", "Files", "Changed lines", "Paths", "Ended", "Findings", "Tokens"],
    rows: coverage.passes.map((p) => [
      [text(String(p.index))],
      [text(String(p.files))],
      [text(String(p.lines))],
      [pathSpan(p.firstPath), text(" … "), pathSpan(p.lastPath)],
      p.ended === null ? [text("not run")] : [code(p.ended)],
      [text(String(p.findings))],
      [text(String(p.tokens))],
    ]),
  };
}

function notReviewed(coverage: ReviewCoverage): Block[] {
  if (coverage.notReviewed.length === 0) return [];
  const byReason = new Map<NotReviewedReason, string[]>();
  for (const { path, reason } of coverage.notReviewed) {
    const paths = byReason.get(reason);
    if (paths === undefined) byReason.set(reason, [path]);
    else paths.push(path);
  }
  const rows = [...byReason].map(([reason, paths]) => [
    [text(NOT_REVIEWED_SENTENCES[reason])],
    [text(String(paths.length))],
    [
      ...paths.slice(0, PATHS_SHOWN).flatMap((p, i) => (i === 0 ? [pathSpan(p)] : [text(", "), pathSpan(p)])),
      ...(paths.length > PATHS_SHOWN ? [text(` and ${paths.length - PATHS_SHOWN} more`)] : []),
    ],
  ]);
  return [
    heading(4, text("Not reviewed, or only described")),
    { type: "table", align: ["left", "right", "left"], header: ["Why", "Files", "Paths"], rows },
  ];
}
