// The pieces run-review orchestrates, as ports: the workspace fetch, the tool loop and the
// publishing core. The default wiring (default-ports.ts) binds the real modules; tests bind the
// same real modules with a local git server and a scripted provider, or swap a port to force a
// path (a failing fetch, a slow loop).

import type { ChangedFile } from "../github/compare.ts";
import type { CheckRunOutput } from "../github/check-run.ts";
import type { InlineComment } from "../github/publish-review.ts";
import type { LoopResult, RoundProgress, Severity } from "../llm/types.ts";
import type { RepositoryView, Workspace } from "../workspace/types.ts";

/** The part of `.github/loupe.yml` the orchestrator itself needs. */
export interface RepoSettings {
  readonly enabled: boolean;
  readonly reviewDrafts: boolean;
  readonly ignoreBots: boolean;
  readonly maxFiles: number;
  readonly instructions: string | null;
  readonly minSeverity: Severity;
  failsOn(severity: Severity): boolean;
  includes(path: string): boolean;
}

export type RepoSettingsResult =
  | { readonly ok: true; readonly settings: RepoSettings; readonly raw: unknown }
  | { readonly ok: false; readonly errors: readonly { readonly path: string; readonly message: string }[] };

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
  readonly changedFiles: readonly string[];
  readonly mergeBaseSha: string;
  readonly repositoryInstructions: string | null;
  readonly signal: AbortSignal;
  readonly onRound: (progress: RoundProgress) => void;
}

export interface PlanInput {
  readonly result: LoopResult;
  readonly files: readonly ChangedFile[];
  readonly settings: RepoSettingsResult & { ok: true };
  readonly postedFingerprints: ReadonlySet<string>;
  readonly marker: string;
  readonly repository: string;
  readonly headSha: string;
  /** The fetched head, for reading the files findings point at. */
  readonly view: RepositoryView;
}

export interface PlannedReview {
  readonly comments: readonly InlineComment[];
  readonly body: string;
  readonly allInBody: () => string;
  /** false when there is nothing to post (no findings, no notes, nothing new). */
  readonly postable: boolean;
  /** One line of counts for the check run (by severity and where each finding went). */
  readonly findingsLine: string;
  /** true when a finding reached the repository's fail_on severity. */
  readonly gateFailed: boolean;
}

export interface FinalOutputInput {
  readonly result: LoopResult;
  readonly plan: PlannedReview | null;
  readonly filesReviewed: readonly string[];
  readonly filesSkipped: readonly string[];
  readonly conclusionNote: string | null;
}

export interface ReviewPorts {
  parseRepoConfig(text: string | null): RepoSettingsResult;
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
  readonly maxRounds: number;
  planReview(input: PlanInput): Promise<PlannedReview>;
  reviewMarker(headSha: string, checkRunId: number): string;
  progressOutput(progress: RoundProgress): CheckRunOutput;
  skipOutput(reason: string): CheckRunOutput;
  finalOutput(input: FinalOutputInput): CheckRunOutput;
}
