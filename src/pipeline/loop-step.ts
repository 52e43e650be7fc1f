// What the tool loop is told about this review: the pull request, its reviewable files as the
// model sees them, the repository's instructions and guidance, and the scope (the whole pull
// request, or the commits since Loupe's last review with their hunks).

import { ruleInstructions } from "../config/directory-rules.ts";
import type { RepoConfig } from "../config/repo-config-schema.ts";
import { describeScope } from "../conversation/review-scope.ts";
import { listChangedFile } from "../diff/listed-change.ts";
import type { ChangedFile } from "../domain/changed-file.ts";
import type { ForgeWords } from "../domain/forge-words.ts";
import type { PullRequest } from "../domain/pull-request.ts";
import type { Guidance } from "../guidance/types.ts";
import type { HostRepository } from "../host/pull-request-host.ts";
import type { ReviewFocus } from "../llm/focus-prompt.ts";
import type { KnownFinding } from "../llm/ledger-prompt.ts";
import type { LoopClock } from "../llm/loop-limits.ts";
import type { RoundProgress } from "../llm/types.ts";
import type { WorkspaceHandle } from "../workspace/types.ts";
import type { LoopInput } from "./review-ports.ts";
import type { ScopeStep } from "./scope-step.ts";

export interface LoopStepInput<W extends WorkspaceHandle> {
  readonly view: W;
  readonly repository: HostRepository;
  readonly pullRequest: PullRequest;
  readonly reviewable: readonly ChangedFile[];
  readonly mergeBaseSha: string;
  readonly config: RepoConfig;
  /** The directory rule each reviewable file takes (prepare-step.ts). */
  readonly ruleOf: ReadonlyMap<string, number>;
  readonly guidance: Guidance;
  readonly scope: ScopeStep;
  readonly signal: AbortSignal;
  readonly clock: LoopClock;
  readonly onRound: (progress: RoundProgress) => void;
  /** The budget's grant, when it is less than the review's own token budget; null: no cap. */
  readonly maxTokens: number | null;
  /** A finder pass's angle; absent: the plain review. */
  readonly angle?: string;
  /** The forge's words, for the scope's reason (what the change is called, the settings file). */
  readonly words: ForgeWords;
}

export function loopInput<W extends WorkspaceHandle>(input: LoopStepInput<W>): LoopInput<W> {
  const focus = reviewFocus(input.scope, input.words);
  return {
    view: input.view,
    repository: `${input.repository.owner}/${input.repository.repo}`,
    pullRequest: input.pullRequest,
    changedFiles: input.reviewable.map(listChangedFile),
    mergeBaseSha: input.mergeBaseSha,
    repositoryInstructions: input.config.instructions.trim() === "" ? null : input.config.instructions,
    guidance: input.guidance.files,
    ruleInstructions: ruleInstructions(
      input.config,
      input.reviewable.map((f) => f.filename),
      input.ruleOf,
    ),
    signal: input.signal,
    clock: input.clock,
    onRound: input.onRound,
    ...(input.maxTokens === null ? {} : { maxTokens: input.maxTokens }),
    ...(input.angle === undefined ? {} : { angle: input.angle }),
    ...(focus === null ? {} : { focus }),
    knownFindings: knownFindings(input.scope),
  };
}

/** Open and dismissed findings on the ledger; fixed and withdrawn ones need no word. */
function knownFindings(scope: ScopeStep): KnownFinding[] {
  return scope.history.ledger.flatMap((entry) =>
    // Findings listed in a review body have no thread, and no title Loupe keeps.
    (entry.status === "open" || entry.status === "dismissed") && entry.path !== ""
      ? [{ status: entry.status, path: entry.path, line: entry.line, title: entry.title }]
      : [],
  );
}

/** The scope line the check run shows; null when the host keeps no history to scope against. */
export function scopeLine(scope: ScopeStep, words: ForgeWords): string | null {
  return scope.scope === null ? null : describeScope(scope.scope, words);
}

function reviewFocus(step: ScopeStep, words: ForgeWords): ReviewFocus | null {
  const description = scopeLine(step, words);
  if (step.scope === null || description === null) return null;
  return {
    kind: step.scope.kind,
    description,
    files: (step.newFiles ?? []).map((f) => ({ path: f.filename, status: f.status, patch: f.patch ?? null })),
  };
}
