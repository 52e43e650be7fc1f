// Validates a stop turn's content as the final review: the exact schema, then every finding's
// path and lines against the head commit. That is the protocol's whole list: how well a finding's
// evidence quotes the code is a quality signal read after validation (domain/code-quote.ts,
// verification), never a reason to reject the review. Every failed check is reported (bounded),
// in Loupe's own words, so a repair request and the check run can say exactly what was wrong.

import * as v from "valibot";
import type { FinalReview, Finding } from "../domain/finding.ts";
import { readRepositoryTextFile } from "../tools/repository-file.ts";
import type { ToolErrorCode } from "../tools/types.ts";
import { checkRepositoryPath } from "../workspace/safe-path.ts";
import type { RepositoryView } from "../workspace/types.ts";
import { readAnswerObject } from "./answer-json.ts";
import { FinalReviewSchema } from "./final-review-schema.ts";
import { capFailures, pathProblem, schemaIssueMessage } from "./review-check-messages.ts";

/** Resolves a repository-relative path to a regular text file of the head commit. */
export type FindingFileCheck = (
  path: string,
) => Promise<{ ok: true; lineCount: number } | { ok: false; code: ToolErrorCode }>;

export type FinalReviewVerdict =
  | { readonly ok: true; readonly review: FinalReview }
  | { readonly ok: false; readonly failures: readonly string[] };

/** The read tool's own rules against the head commit: a finding may only point where it can read. */
export function headFileCheck(view: RepositoryView): FindingFileCheck {
  return async (path) => {
    const file = await readRepositoryTextFile(view, path);
    if (!file.ok) return { ok: false, code: file.error.code };
    return { ok: true, lineCount: file.lineCount };
  };
}

const MAX_SHOWN_PATH = 200;

export async function validateFinalReview(
  content: unknown,
  checkFile: FindingFileCheck,
): Promise<FinalReviewVerdict> {
  const parsed = readAnswerObject(content, {
    what: "the final review",
    fields: "summary, findings and notes",
  });
  if (!parsed.ok) return parsed;
  const result = v.safeParse(FinalReviewSchema, parsed.value, { abortEarly: false });
  if (!result.success) return fail(result.issues.map((issue) => schemaIssueMessage(issue)));
  const review = result.output as FinalReview;
  const failures: string[] = [];
  // Each file is read and counted once, however many findings name it (a hundred findings in one
  // megabyte file would otherwise read it a hundred times).
  const files = new Map<string, ReturnType<FindingFileCheck>>();
  const checkOnce: FindingFileCheck = (path) => {
    let file = files.get(path);
    if (file === undefined) {
      file = checkFile(path);
      files.set(path, file);
    }
    return file;
  };
  for (const [index, finding] of review.findings.entries()) {
    failures.push(...(await checkFinding(index, finding, checkOnce)));
  }
  if (failures.length > 0) return fail(failures);
  return { ok: true, review: { ...review, findings: review.findings.map(canonicalPath) } };
}

/**
 * The path as the pull request's file list spells it: the check above accepts `./src/a.ts` (the
 * read tool's rules), but anchoring and fingerprints compare paths as strings, so a finding left
 * as `./src/a.ts` would miss its file and fall into the review body.
 */
function canonicalPath(finding: Finding): Finding {
  const checked = checkRepositoryPath(finding.path);
  return checked.ok && checked.path !== finding.path ? { ...finding, path: checked.path } : finding;
}

async function checkFinding(index: number, finding: Finding, checkFile: FindingFileCheck): Promise<string[]> {
  const at = `findings[${index}]`;
  const endLine = finding.end_line ?? null;
  const failures: string[] = [];
  if (finding.line === null && endLine !== null) failures.push(`${at}.end_line: is set but line is null`);
  if (finding.line !== null && endLine !== null && endLine < finding.line) {
    failures.push(`${at}.end_line: ${endLine} is before line ${finding.line}`);
  }
  const shown =
    finding.path.length > MAX_SHOWN_PATH ? `${finding.path.slice(0, MAX_SHOWN_PATH)}…` : finding.path;
  const file = await checkFile(finding.path);
  if (!file.ok) return [...failures, pathProblem(index, file.code, shown)];
  for (const [field, value] of [
    ["line", finding.line],
    ["end_line", endLine],
  ] as const) {
    if (value !== null && value > file.lineCount) {
      failures.push(`${at}.${field}: ${value} is past the end of ${shown} (${file.lineCount} lines)`);
    }
  }
  return failures;
}

function fail(failures: readonly string[]): FinalReviewVerdict {
  return { ok: false, failures: capFailures(failures) };
}
