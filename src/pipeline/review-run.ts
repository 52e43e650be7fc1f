// What one run of the review pipeline is given by its caller (the App, the Action, GitLab's
// runner, the CLI): who asked, how it is bounded, its clock and where it logs. Its own module so
// that the steps read it without importing the pipeline that sequences them.

import type { AuthorPolicy } from "../domain/author-policy.ts";
import type { PullRequest } from "../domain/pull-request.ts";
import type { SettingNames } from "../domain/setting-names.ts";
import type { Prices } from "../domain/spend.ts";
import type { RoundProgress } from "../llm/types.ts";
import type { JobLogger } from "../log/job-logger.ts";
import type { ReviewBudget } from "./budget-step.ts";
import type { ReviewDeadline } from "./review-deadline.ts";

export interface ReviewRun {
  readonly signal: AbortSignal;
  /** A person asked for this review (re-run, command, the CLI): drafts, bots and pauses do not hold it. */
  readonly asked: boolean;
  /** A full review was asked for, even where an incremental one would do. */
  readonly askedFull: boolean;
  /** The operator's AUTO_REVIEW_AUTHORS: whose pull requests are reviewed without being asked. */
  readonly authorPolicy: AuthorPolicy;
  /** Called once the pull request is known; answers the id the review's markers carry (the check run). */
  readonly started: (pullRequest: PullRequest) => Promise<number>;
  readonly onRound?: (progress: RoundProgress) => void;
  readonly log: JobLogger;
  /** What the review may spend; absent, only its own budgets bound it (the CLI). */
  readonly budget?: ReviewBudget;
  /** The operator's prices (REVIEW_PRICE_*), or null: a cost is then the provider's figure or unknown. */
  readonly prices: Prices | null;
  /**
   * The handle a command mentions (`@<handle> review`): the App's slug, the Action's `mention`
   * input. Asked only for a text that tells someone what to type; absent: "mentioning Loupe".
   */
  readonly mention?: () => Promise<string>;
  /** How texts name settings where they are read (the Action: its inputs); absent: environment variables. */
  readonly names?: SettingNames;
  /** The review's one clock (epoch ms): its steps read time here, never the process's clock. */
  readonly now: () => number;
  /**
   * The review's deadline, when the caller reads git before the pipeline does (the CLI) and so
   * started it first; absent, the pipeline starts it as the review begins.
   */
  readonly deadline?: ReviewDeadline;
}
