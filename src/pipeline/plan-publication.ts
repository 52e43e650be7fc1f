// From a loop result to what Loupe posts: reads the head text of each file a finding names,
// sorts every finding with the publishing core's planner, renders the review body (and the 422
// fallback with every finding in the body), and counts findings for the check run and the gate.

import { fileRule } from "../config/directory-rules.ts";
import type { Finding } from "../domain/finding.ts";
import { TimeSlices } from "../domain/time-slices.ts";
import { FileCode } from "../review/file-code.ts";
import { summariseLedger } from "../review/ledger.ts";
import { planReviewInSlices } from "../review/plan-review.ts";
import { renderReviewBody } from "../review/render-body.ts";
import { resolvedFindings, reviewedFindings } from "../review/reviewed-findings.ts";
import { emptySeverityCounts, isAtLeast } from "../review/severity.ts";
import { readRepositoryTextFile } from "../tools/repository-file.ts";
import type { PlanInput, PlannedReview } from "./review-ports.ts";

export async function planPublication(input: PlanInput): Promise<PlannedReview> {
  const review = input.result.review;
  const findings = review?.findings ?? [];
  // Each named file is read once and its code indexed once (file-code.ts), a file at a time
  // between turns of the event loop: a hundred findings in a hundred megabyte files stay a
  // hundred short steps, not one long one.
  const headTexts = new Map<string, FileCode>();
  const slices = new TimeSlices();
  for (const path of new Set(findings.map((f) => f.path))) {
    const file = await readRepositoryTextFile(input.view, path);
    if (file.ok) headTexts.set(path, await FileCode.fromTextInSlices(file.text, slices));
    await slices.pause();
  }
  const repository = input.repository;
  const plan = await planReviewInSlices(
    {
      findings,
      files: input.files,
      headTexts,
      minSeverity: (path) => fileRule(input.config, path).min_severity,
      maxInline: input.config.max_findings,
      alreadyPosted: input.postedFingerprints,
      ledger: input.ledger ?? [],
      repository,
      words: input.words,
    },
    slices,
  );
  const render = (allInBody: boolean): string =>
    review === null
      ? ""
      : renderReviewBody({
          review,
          plan,
          headSha: input.headSha,
          checkRunId: input.checkRunId,
          repository,
          words: input.words,
          allInBody,
          trailingMarkers: input.reviewedMarker === undefined ? [] : [input.reviewedMarker],
        });
  // Duplicates still count: a problem posted on an earlier commit that is still there still fails
  // the gate. Findings below their file's min_severity are neither shown nor gated; each finding is
  // gated by its file's fail_on (a directory rule's, or the top-level one).
  const counted: Finding[] = [
    ...plan.inline.map((c) => c.finding),
    ...plan.outside.map((o) => o.finding),
    ...plan.duplicates,
  ];
  const findingsBySeverity = emptySeverityCounts();
  for (const finding of counted) findingsBySeverity[finding.severity]++;
  const gates = (finding: Finding) => {
    const failOn = fileRule(input.config, finding.path).fail_on;
    return failOn !== "none" && isAtLeast(finding.severity, failOn);
  };
  const fresh = plan.inline.length + plan.outside.length;
  const machine = reviewedFindings(plan.placed, findings, input.result.verification);
  const notes = review?.notes.filter((n) => n.trim() !== "") ?? [];
  return {
    comments: plan.inline.map(({ path, line, start_line, body }) => ({
      path,
      line,
      body,
      ...(start_line === undefined ? {} : { startLine: start_line }),
    })),
    body: render(false),
    allInBody: () => render(true),
    // Nothing new → no review (the check run still says what was found); a review with no
    // findings is posted only when it carries notes, so a clean push does not add noise.
    postable: review !== null && (fresh > 0 || (findings.length === 0 && notes.length > 0)),
    findingsBySeverity,
    placement:
      `${plan.inline.length} inline, ${plan.outside.length} in the review body, ` +
      `${plan.duplicates.length} already posted earlier, ` +
      (plan.dismissed.length > 0 ? `${plan.dismissed.length} dismissed earlier, ` : "") +
      `${plan.belowThreshold.length} below min_severity` +
      (notes.length > 0 ? `; ${notes.length} note${notes.length === 1 ? "" : "s"}.` : "."),
    gateFailed: counted.some(gates),
    raised: plan.raised,
    ledger: summariseLedger(input.ledger ?? [], fresh, plan.dismissed.length),
    findings: machine,
    resolved: resolvedFindings(input.ledger ?? [], machine),
  };
}
