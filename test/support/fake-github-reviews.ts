// POST /repos/:o/:r/pulls/:n/reviews validated the way GitHub validates it: a comment must sit on a
// line inside one of the file's diff hunks on its side (RIGHT: added + context lines, new-file
// numbers; LEFT: deleted + context lines, old-file numbers), a multi-line comment's start_line in
// the same hunk, the path part of the pull request. One bad comment rejects the whole review with
// GitHub's current 422 body, which does not say which comment was at fault.

import type { CompareFile } from "./fake-github-compare.ts";

export interface Hunk {
  readonly right: ReadonlySet<number>;
  readonly left: ReadonlySet<number>;
}

/** The hunks of a GitHub `patch` (starts at the first `@@`). */
export function parsePatchHunks(patch: string): Hunk[] {
  const hunks: { right: Set<number>; left: Set<number> }[] = [];
  let current: { right: Set<number>; left: Set<number> } | undefined;
  let oldLine = 0;
  let newLine = 0;
  for (const line of patch.split("\n")) {
    const header = /^@@ -(\d+)(?:,\d+)? \+(\d+)(?:,\d+)? @@/.exec(line);
    if (header) {
      current = { right: new Set(), left: new Set() };
      hunks.push(current);
      oldLine = Number(header[1]);
      newLine = Number(header[2]);
      continue;
    }
    if (current === undefined || line.startsWith("\\")) continue;
    if (line.startsWith("+")) current.right.add(newLine++);
    else if (line.startsWith("-")) current.left.add(oldLine++);
    else {
      current.right.add(newLine++);
      current.left.add(oldLine++);
    }
  }
  return hunks;
}

export interface ReviewCommentInput {
  readonly path?: unknown;
  readonly body?: unknown;
  readonly line?: unknown;
  readonly side?: unknown;
  readonly start_line?: unknown;
  readonly start_side?: unknown;
  readonly position?: unknown;
}

const LINE_NOT_IN_DIFF = "Pull request review thread line must be part of the diff";
const START_NOT_IN_HUNK = "Pull request review thread start line must be part of the same hunk as the line.";
const PATH_INVALID = "Pull request review thread path is invalid";
const HUNK_BLANK = "Pull request review thread diff hunk can't be blank";
const MAX_BODY = 65536;

function sentence(parts: readonly string[]): string {
  if (parts.length <= 1) return parts[0] ?? "";
  if (parts.length === 2) return `${parts[0]} and ${parts[1]}`;
  return `${parts.slice(0, -1).join(", ")}, and ${parts[parts.length - 1]}`;
}

/** Error strings for the comments (empty when GitHub would accept them all). */
export function validateReviewComments(
  comments: readonly ReviewCommentInput[],
  files: readonly CompareFile[],
): string[] {
  const problems = new Set<string>();
  for (const comment of comments) {
    if (typeof comment.body !== "string" || comment.body === "") problems.add("Body can't be blank");
    else if (comment.body.length > MAX_BODY)
      problems.add(`Body is too long (maximum is ${MAX_BODY} characters)`);
    const file = files.find((f) => f.filename === comment.path);
    if (file === undefined) {
      problems.add(PATH_INVALID);
      problems.add(HUNK_BLANK);
      continue;
    }
    const hunks = file.patch === undefined ? [] : parsePatchHunks(file.patch);
    if (comment.position !== undefined) {
      const positions = (file.patch ?? "").split("\n").length - 1;
      if (typeof comment.position !== "number" || comment.position < 1 || comment.position > positions) {
        problems.add(LINE_NOT_IN_DIFF);
        problems.add(HUNK_BLANK);
      }
      continue;
    }
    const side = comment.side ?? "RIGHT";
    const pick = (h: Hunk, s: unknown) => (s === "LEFT" ? h.left : h.right);
    const hunk =
      typeof comment.line === "number" && (side === "RIGHT" || side === "LEFT")
        ? hunks.find((h) => pick(h, side).has(comment.line as number))
        : undefined;
    if (hunk === undefined) {
      problems.add(LINE_NOT_IN_DIFF);
      problems.add(HUNK_BLANK);
      continue;
    }
    if (comment.start_line !== undefined && comment.start_line !== null) {
      const startSide = comment.start_side ?? side;
      const ok =
        typeof comment.start_line === "number" &&
        comment.start_line < (comment.line as number) &&
        pick(hunk, startSide).has(comment.start_line);
      if (!ok) {
        problems.add(START_NOT_IN_HUNK);
        problems.add(HUNK_BLANK);
      }
    }
  }
  // GitHub lists the hunk message last in the one joined sentence.
  const ordered = [...problems].filter((p) => p !== HUNK_BLANK);
  if (problems.has(HUNK_BLANK)) ordered.push(HUNK_BLANK);
  return ordered.length === 0 ? [] : [sentence(ordered)];
}

export const REVIEW_DOCUMENTATION_URL =
  "https://docs.github.com/rest/pulls/reviews#create-a-review-for-a-pull-request";
