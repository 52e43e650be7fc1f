// The passes of one review, as one loop result: their figures added (tokens, spend, rounds, tool
// calls, time), their findings merged and deduplicated, one summary. A finding two passes both
// raised (same path and line, and the same title or the same claim in other words) is kept once.
// The review ended `final_review` only if every pass that ran did; otherwise the first other
// reason is the review's, and the findings of the passes that finished still stand.

import type { FinalReview, Finding } from "../domain/finding.ts";
import { addSpend, NO_SPEND } from "../domain/spend.ts";
import type { LoopResult, TraceTurn } from "../llm/types.ts";
import { claimSimilarity, claimSketch, claimWords, SAME_CLAIM } from "../review/finding-identity.ts";

export interface PassResult {
  readonly result: LoopResult;
  /** The pass's files, for its line in the merged summary. */
  readonly files: number;
  /** Its line's name in the merged summary (a finder pass's angle); absent: "Pass i of n". */
  readonly label?: string;
}

const normaliseTitle = (title: string): string =>
  title.normalize("NFKC").toLowerCase().replace(/\s+/g, " ").trim();

export function mergePasses(passes: readonly PassResult[]): LoopResult {
  const results = passes.map((p) => p.result);
  const failed = results.find((r) => r.termination_reason !== "final_review");
  const sum = (of: (r: LoopResult) => number) => results.reduce((total, r) => total + of(r), 0);
  return {
    termination_reason: failed?.termination_reason ?? "final_review",
    usage: {
      prompt_tokens: sum((r) => r.usage.prompt_tokens),
      completion_tokens: sum((r) => r.usage.completion_tokens),
      total_tokens: sum((r) => r.usage.total_tokens),
    },
    spend: results.reduce((total, r) => addSpend(total, r.spend), NO_SPEND),
    rounds: sum((r) => r.rounds),
    tool_calls: sum((r) => r.tool_calls),
    duration_ms: sum((r) => r.duration_ms),
    trace: mergeTraces(results),
    review: mergeReviews(passes),
    ...(failed?.provider_failure === undefined ? {} : { provider_failure: failed.provider_failure }),
    ...(failed?.retry_after_seconds === undefined ? {} : { retry_after_seconds: failed.retry_after_seconds }),
  };
}

/** The passes' turns one after another, numbered on across passes; none if any pass has none. */
function mergeTraces(results: readonly LoopResult[]): readonly TraceTurn[] | null {
  const turns: TraceTurn[] = [];
  for (const result of results) {
    if (result.trace === null) return null;
    const offset = turns.length;
    turns.push(...result.trace.map((turn) => ({ ...turn, round: turn.round + offset })));
  }
  return turns;
}

function mergeReviews(passes: readonly PassResult[]): FinalReview | null {
  const reviewed = passes.flatMap((p, i) => (p.result.review === null ? [] : [{ ...p, index: i + 1 }]));
  if (reviewed.length === 0) return null;
  const findings: Finding[] = [];
  for (const { result } of reviewed) {
    for (const finding of result.review!.findings) {
      if (!findings.some((kept) => sameDefect(kept, finding))) findings.push(finding);
    }
  }
  const summary =
    passes.length === 1
      ? reviewed[0]!.result.review!.summary
      : reviewed
          .map(
            (p) =>
              `${p.label ?? `Pass ${p.index} of ${passes.length} (${p.files} files)`}: ${p.result.review!.summary}`,
          )
          .join("\n\n");
  const notes = [...new Set(reviewed.flatMap((p) => p.result.review!.notes))];
  return { summary, findings, notes };
}

/**
 * The same defect found twice: on the same path and lines, with the same title (as fingerprints
 * normalise it) or the same claim in other words (the ledger's measure, finding-identity.ts) —
 * two finders looking from different angles rarely word one defect alike.
 */
function sameDefect(a: Finding, b: Finding): boolean {
  if (a.path !== b.path || a.line !== b.line) return false;
  if (normaliseTitle(a.title) === normaliseTitle(b.title)) return true;
  const claim = (f: Finding) => claimSketch(claimWords(f.title, f.explanation));
  return claimSimilarity(claim(a), claim(b)) >= SAME_CLAIM;
}
