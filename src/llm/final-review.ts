// Validates a stop turn's content as the final review: the exact schema, then every finding's
// path and lines against the head commit. Anything short of that is invalid_model_response.

import * as v from "valibot";
import { FinalReviewSchema } from "./final-review-schema.ts";
import type { FinalReview, Finding } from "./types.ts";

/** Resolves a repository-relative path to a regular text file of the head commit. */
export type FindingFileCheck = (path: string) => Promise<{ ok: true; lineCount: number } | { ok: false }>;

export type FinalReviewVerdict =
  | { readonly ok: true; readonly review: FinalReview }
  | { readonly ok: false; readonly problem: string };

const FENCE = /^```(?:json)?[ \t]*\r?\n([\s\S]*?)\r?\n[ \t]*```$/;

export async function validateFinalReview(
  content: unknown,
  checkFile: FindingFileCheck,
): Promise<FinalReviewVerdict> {
  if (typeof content !== "string" || content.trim() === "") {
    return { ok: false, problem: "the stop turn has no text content" };
  }
  const trimmed = content.trim();
  // One ```json fence around the whole answer is tolerated; prose around it is not.
  const jsonText = FENCE.exec(trimmed)?.[1] ?? trimmed;
  let parsed: unknown;
  try {
    parsed = JSON.parse(jsonText);
  } catch {
    return { ok: false, problem: "the final review is not JSON" };
  }
  const result = v.safeParse(FinalReviewSchema, parsed);
  if (!result.success) {
    const issue = result.issues[0];
    const at = issue === undefined ? "" : (v.getDotPath(issue) ?? "");
    return {
      ok: false,
      problem: `the final review does not match the schema${at === "" ? "" : ` at ${at}`}`,
    };
  }
  const review = result.output as FinalReview;
  for (const [index, finding] of review.findings.entries()) {
    const problem = await checkFinding(finding, checkFile);
    if (problem !== null) return { ok: false, problem: `finding ${index}: ${problem}` };
  }
  return { ok: true, review };
}

async function checkFinding(finding: Finding, checkFile: FindingFileCheck): Promise<string | null> {
  const endLine = finding.end_line ?? null;
  if (finding.line === null && endLine !== null) return "end_line without line";
  if (finding.line !== null && endLine !== null && endLine < finding.line) return "end_line before line";
  const file = await checkFile(finding.path);
  if (!file.ok) return "path is not a regular text file of the head commit";
  const last = endLine ?? finding.line;
  if (last !== null && last > file.lineCount) return "line past the end of the file";
  return null;
}
