// How a job ends: the check run's conclusion and output, and whether the queue should remember
// the SHA as reviewed (so a redelivered push is not reviewed twice; a draft skip is not remembered,
// so ready_for_review on the same SHA still gets its review).

import type { CheckConclusion, CheckRunOutput } from "../github/check-run.ts";
import { renderSkipOutput } from "../github/check-run-output.ts";

export interface Ending {
  readonly conclusion: CheckConclusion;
  readonly output: CheckRunOutput;
  readonly remember: boolean;
}

export type SkipCode =
  | "closed"
  | "disabled"
  | "draft"
  | "bot_author"
  | "too_many_files"
  | "no_files"
  | "repository_too_large"
  | "auto_review_off"
  | "paused";

export function skippedEnding(code: SkipCode, detail: string, remember = true): Ending {
  return { conclusion: "skipped", output: renderSkipOutput(code, detail), remember };
}
