// The pieces run-review orchestrates, as ports: the workspace fetch, the tool loop and the
// publishing plan. The default wiring (default-ports.ts) binds the real modules; tests bind the
// same real modules with a local git server and a scripted provider, or swap a port to force a
// path (a failing fetch, a slow loop).

import type { RepoConfig, RepoConfigResult } from "../config/repo-config.ts";
import type { ListedChange } from "../diff/listed-change.ts";
import type { ChangedFile } from "../github/compare.ts";
import type { InlineComment } from "../github/publish-review.ts";
import type { GuidanceFile } from "../guidance/types.ts";
import type { ReviewFocus } from "../llm/focus-prompt.ts";
import type { ReplyPromptInput } from "../llm/reply-prompt.ts";
import type { ThreadReply } from "../llm/reply-schema.ts";
import type { LoopResult, RoundProgress, Severity, ToolLoopResult } from "../llm/types.ts";
import type { RepositoryView, Workspace } from "../workspace/types.ts";

export interface PullRequestInfo {
  readonly number: number;
  readonly url: string;
  readonly title: string;
  readonly body: string | null;
  readonly baseSha: string;
  readonly headSha: string;
}

export interface LoopInput {
  readonly view: RepositoryView;
  readonly repository: string;
  readonly pullRequest: PullRequestInfo;
  readonly changedFiles: readonly ListedChange[];
  readonly mergeBaseSha: string;
  readonly repositoryInstructions: string | null;
  /** The repository's guidance files from its default branch, bounded (src/guidance). */
  readonly guidance?: readonly GuidanceFile[];
  readonly signal: AbortSignal;
  readonly onRound: (progress: RoundProgress) => void;
  /** What this review covers (incremental or full, and why). */
  readonly focus?: ReviewFocus;
}

export interface ReplyLoopInput {
  readonly view: RepositoryView;
  readonly prompt: ReplyPromptInput;
  readonly signal: AbortSignal;
}

export interface PlanInput {
  readonly result: LoopResult;
  readonly files: readonly ChangedFile[];
  readonly config: RepoConfig;
  readonly postedFingerprints: ReadonlySet<string>;
  readonly checkRunId: number;
  readonly owner: string;
  readonly repo: string;
  readonly headSha: string;
  /** The fetched head, for reading the files findings point at. */
  readonly view: RepositoryView;
  /** `<!-- loupe:reviewed … -->` for the next incremental review, ending the review body. */
  readonly reviewedMarker?: string;
}

export interface PlannedReview {
  readonly comments: readonly InlineComment[];
  readonly body: string;
  /** The 422 fallback: the same review with every finding in the body and no inline comment. */
  readonly allInBody: () => string;
  /** false when there is nothing to post (no findings, no notes, nothing new). */
  readonly postable: boolean;
  /** Findings at or above min_severity (posted now or on an earlier commit), by severity. */
  readonly findingsBySeverity: Record<Severity, number>;
  /** Where each finding went, in one sentence for the check run. */
  readonly placement: string;
  /** true when a finding reached the repository's fail_on severity. */
  readonly gateFailed: boolean;
  /** Fingerprints of the findings this review raised (posted now or earlier): their threads stay open. */
  readonly raised: ReadonlySet<string>;
}

export interface ReviewPorts {
  parseRepoConfig(text: string | null): RepoConfigResult;
  fetchWorkspace(input: {
    readonly url: string;
    readonly headSha: string;
    readonly mergeBaseSha: string;
    readonly baseSha: string;
    readonly pullNumber: number;
    readonly token: string;
    readonly signal: AbortSignal;
  }): Promise<Workspace>;
  runLoop(input: LoopInput): Promise<LoopResult>;
  /** The loop's own budget, so retries of GitHub writes know the review's deadline. */
  readonly reviewTimeoutMs: number;
  /** The same tools and provider, asked for a reply in a review thread, with the reply budgets. */
  runReplyLoop(input: ReplyLoopInput): Promise<ToolLoopResult<ThreadReply>>;
  readonly replyTimeoutMs: number;
  planReview(input: PlanInput): Promise<PlannedReview>;
}
