// The review's final answer for the tool loop: the final review schema, each finding checked
// against the head commit, and the review's own final-answer and repair words.

import type { FinalAnswer } from "./final-answer.ts";
import { type FindingFileCheck, validateFinalReview } from "./final-review.ts";
import { FINAL_ANSWER_INSTRUCTION } from "./prompt.ts";
import { repairInstruction } from "./repair.ts";
import type { FinalReview } from "../domain/finding.ts";

const FINDING_TEXTS = ["title", "explanation", "evidence", "recommendation", "suggestion"] as const;

export function reviewAnswer(checkFile: FindingFileCheck): FinalAnswer<FinalReview> {
  return {
    finalInstruction: FINAL_ANSWER_INSTRUCTION,
    async validate(content) {
      const verdict = await validateFinalReview(content, checkFile);
      return verdict.ok ? { ok: true, value: verdict.review } : verdict;
    },
    repairInstruction,
    mapText: (review, edit) => ({
      summary: edit(review.summary),
      findings: review.findings.map((finding) => {
        const out = { ...finding };
        for (const key of FINDING_TEXTS) {
          const value = out[key];
          if (typeof value === "string") (out as Record<string, unknown>)[key] = edit(value);
        }
        return out;
      }),
      notes: review.notes.map(edit),
    }),
  };
}
