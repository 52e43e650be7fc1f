// The pieces run-review orchestrates, as ports: the workspace fetch, the tool loop and the
// publishing plan. The default wiring (default-ports.ts) binds the real modules in this thread;
// the App's server binds the same modules in worker threads (src/isolation), where W is a handle
// to a workspace that lives in a worker. Tests bind the real modules with a local git server and
// a scripted provider, or swap a port to force a path (a failing fetch, a slow loop).

import type { ConfigLayerResult } from "../config/repo-config.ts";
import type { RepoConfig } from "../config/repo-config-schema.ts";
import type { ReviewLimits } from "../config/review-limits.ts";
import type { ListedChange } from "../diff/listed-change.ts";
import type { ChangedFile } from "../domain/changed-file.ts";
import type { Finding, Severity } from "../domain/finding.ts";
import type { ForgeWords } from "../domain/forge-words.ts";
import type { PullRequest } from "../domain/pull-request.ts";
import type { FindingVerdict } from "../domain/verification.ts";
import type { GuidanceFile } from "../guidance/types.ts";
import type { FetchWorkspace, HostComment, HostRepository } from "../host/pull-request-host.ts";
import type { ReviewFocus } from "../llm/focus-prompt.ts";
import type { KnownFinding } from "../llm/ledger-prompt.ts";
import type { LoopClock } from "../llm/loop-limits.ts";
import type { PassFocus } from "../llm/prompt.ts";
import type { ReplyPromptInput } from "../llm/reply-prompt.ts";
import type { ThreadReply } from "../llm/reply-schema.ts";
import type { RuleInstruction } from "../llm/rule-prompt.ts";
import type { LoopResult, RoundProgress, ToolLoopResult } from "../llm/types.ts";
import type { LedgerEntry, LedgerSummary } from "../review/ledger.ts";
import type { ResolvedFinding, ReviewedFinding } from "../review/reviewed-findings.ts";
import type { Workspace, WorkspaceHandle } from "../workspace/types.ts";
import type { LoopLimits } from "./pass-share.ts";

export interface LoopInput<W extends WorkspaceHandle = Workspace> {
  readonly view: W;
  readonly clock: LoopClock;
  readonly repository: string;
  readonly pullRequest: PullRequest;
  readonly changedFiles: readonly ListedChange[];
  readonly mergeBaseSha: string;
  readonly repositoryInstructions: string | null;
  /** The repository's guidance files from its default branch, bounded (src/guidance). */
  readonly guidance?: readonly GuidanceFile[];
  /** The directory rules' instructions, each with the changed files it applies to. */
  readonly ruleInstructions?: readonly RuleInstruction[];
  readonly signal: AbortSignal;
  readonly onRound: (progress: RoundProgress) => void;
  /** What this review covers (incremental or full, and why). */
  readonly focus?: ReviewFocus;
  /** Fewer tokens than the review's own budget, when the installation's budget grants fewer. */
  readonly maxTokens?: number;
  /** The ledger's open and dismissed findings, for the first message. */
  readonly knownFindings?: readonly KnownFinding[];
  /** A pass's share of the review's limits (pass-share.ts), in place of the whole of them. */
  readonly share?: LoopLimits;
  /** Set when the change is reviewed in passes: which one this is, and how much of it it covers. */
  readonly pass?: PassFocus;
  /** A finder pass's angle (llm/finder-angles.ts); absent: the plain review. */
  readonly angle?: string;
}

export interface ReplyLoopInput<W extends WorkspaceHandle = Workspace> {
  readonly view: W;
  /** The code the thread is about is read by the port, next to the workspace (from `finding`). */
  readonly prompt: Omit<ReplyPromptInput, "code">;
  readonly signal: AbortSignal;
  readonly clock: LoopClock;
  /** Fewer tokens than the reply's own budget, when that is all the budgets granted. */
  readonly maxTokens?: number;
}

export interface VerifyInput<W extends WorkspaceHandle = Workspace> {
  readonly view: W;
  readonly repository: string;
  readonly mergeBaseSha: string;
  readonly headSha: string;
  /** The candidate finding under question (untrusted: the review's model wrote it). */
  readonly finding: Finding;
  /** Its share of what the review has left (verify-limits.ts). */
  readonly limits: LoopLimits;
  readonly signal: AbortSignal;
  readonly clock: LoopClock;
}

/** A verification loop's result, with what the head commit says of its quotes (review/refutation-quote.ts). */
export type VerifyResult = ToolLoopResult<FindingVerdict> & {
  /** A refutation's quote is in the head commit near the finding, and shows more than the claim. */
  readonly refutation_proven: boolean;
  /** The finding's own evidence quotes head code near its lines. */
  readonly evidence_quoted: boolean;
};

export interface PlanInput<W extends WorkspaceHandle = Workspace> {
  readonly result: LoopResult;
  readonly files: readonly ChangedFile[];
  readonly config: RepoConfig;
  readonly postedFingerprints: ReadonlySet<string>;
  /** Loupe's findings on the pull request and their status; a finding on it is not posted again. */
  readonly ledger?: readonly LedgerEntry[];
  readonly checkRunId: number;
  /** Where links in model text may point (the reviewed repository on its host). */
  readonly repository: HostRepository;
  /** The forge's words for the review body's sentences (plain data: it crosses to the worker). */
  readonly words: ForgeWords;
  readonly headSha: string;
  /** The fetched head, for reading the files findings point at. */
  readonly view: W;
  /** `<!-- loupe:reviewed … -->` for the next incremental review, ending the review body. */
  readonly reviewedMarker?: string;
}

export interface PlannedReview {
  readonly comments: readonly HostComment[];
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
  /** The ledger as the check run shows it: this review's new findings, and the ledger's counts. */
  readonly ledger: LedgerSummary;
  /** Each finding at or above min_severity, for machines (SARIF, the agents' JSON). */
  readonly findings: readonly ReviewedFinding[];
  /** The ledger's fixed findings this review did not raise again. */
  readonly resolved: readonly ResolvedFinding[];
}

/**
 * W: what the pipeline holds of a fetched workspace. A port whose work was stopped from outside
 * (its worker ran out of memory or time) says so: the loops with their termination reason, the
 * fetch and the plan by throwing a LoupeError whose code is that reason.
 */
export interface ReviewPorts<W extends WorkspaceHandle = Workspace> {
  /** One layer's file (the organisation's or the repository's), validated, with the keys it sets. */
  parseRepoConfig(text: string | null): ConfigLayerResult;
  /** A forge host fetches with it (tests swap it to force a failing or slow fetch). */
  readonly fetchWorkspace: FetchWorkspace<W>;
  runLoop(input: LoopInput<W>): Promise<LoopResult>;
  /** The loop's own budget, so retries of GitHub writes know the review's deadline. */
  readonly reviewTimeoutMs: number;
  /** The same tools and provider, asked for a reply in a review thread, with the reply budgets. */
  runReplyLoop(input: ReplyLoopInput<W>): Promise<ToolLoopResult<ThreadReply>>;
  readonly replyTimeoutMs: number;
  planReview(input: PlanInput<W>): Promise<PlannedReview>;
  /** The review's whole budgets, which its passes and its verification pass share (pass-share.ts,
   * verify-limits.ts); `verify` false: no verification pass. */
  readonly reviewLimits: ReviewLimits;
  /** The same tools and provider, asked whether one candidate finding holds at the head commit. */
  verifyFinding(input: VerifyInput<W>): Promise<VerifyResult>;
}
