// Binds run-review's ports to the real modules, in this thread: the repository config parser, the
// isomorphic-git workspace, the tool registry with the OpenAI-compatible loop, and the publishing
// core. The CLI uses them as they are; the App's server runs the same ports inside worker threads
// (src/isolation), so that repository work never holds the server's event loop.

import type { ProviderConfig } from "../config/provider-config.ts";
import { DEFAULT_REPLY_LIMITS } from "../config/reply-limits.ts";
import { parseConfigLayer } from "../config/repo-config.ts";
import type { ReviewLimits } from "../config/review-limits.ts";
import { codeExcerpt } from "../conversation/code-excerpt.ts";
import type { Finding } from "../domain/finding.ts";
import { hostedPage, type PullRequest } from "../domain/pull-request.ts";
import { createOpenAiProvider } from "../llm/client.ts";
import { runReviewLoop } from "../llm/loop.ts";
import type { ReviewPromptInput } from "../llm/prompt.ts";
import type { ChatProvider } from "../llm/provider.ts";
import type { ProviderGate } from "../llm/provider-gate.ts";
import { runReplyLoop } from "../llm/reply-loop.ts";
import { runVerifyLoop } from "../llm/verify-loop.ts";
import { type Metrics, NO_METRICS } from "../metrics/metrics.ts";
import { observeToolCalls } from "../metrics/observed-tools.ts";
import { withinGrant } from "../pipeline/pass-share.ts";
import { planPublication } from "../pipeline/plan-publication.ts";
import type { LoopInput, ReviewPorts } from "../pipeline/review-ports.ts";
import { quotesInHead } from "../review/refutation-quote.ts";
import { createToolRegistry } from "../tools/registry.ts";
import { fetchWorkspace } from "../workspace/fetch.ts";
import type { Workspace } from "../workspace/types.ts";

export interface DefaultPortsOptions {
  readonly provider: ProviderConfig;
  readonly limits: ReviewLimits;
  /** A thread reply's budgets (readReplyLimits); the review's with the reply defaults if absent. */
  readonly replyLimits?: ReviewLimits;
  readonly includeTrace?: boolean;
  /** Injected in tests of the loop alone; defaults to the OpenAI client. */
  readonly chatProvider?: ChatProvider;
  readonly tmpRoot?: string;
  /** Counts the tool calls and the provider's errors (the process's metrics port). */
  readonly metrics?: Metrics;
  /** The share of the provider every model request waits for (none: requests go at once). */
  readonly gate?: ProviderGate;
}

export function createDefaultPorts(options: DefaultPortsOptions): ReviewPorts {
  const metrics = options.metrics ?? NO_METRICS;
  const chat =
    options.chatProvider ??
    createOpenAiProvider(options.provider, {
      onFailedAttempt: (kind) => metrics.dependencyError("provider", kind),
      ...(options.gate === undefined ? {} : { gate: options.gate }),
    });
  const replyLimits = options.replyLimits ?? { ...options.limits, ...DEFAULT_REPLY_LIMITS };
  const toolsFor = (view: Parameters<typeof createToolRegistry>[0]) =>
    observeToolCalls(createToolRegistry(view), options.metrics ?? NO_METRICS);
  return {
    parseRepoConfig: parseConfigLayer,
    reviewTimeoutMs: options.limits.timeoutMs,
    fetchWorkspace: (input) =>
      fetchWorkspace({
        ...input,
        maxBytes: options.limits.maxFetchBytes,
        ...(options.tmpRoot ? { tmpRoot: options.tmpRoot } : {}),
      }),
    runLoop: (input) =>
      runReviewLoop({
        provider: chat,
        tools: toolsFor(input.view),
        view: input.view,
        model: options.provider.model,
        prompt: {
          repository: input.repository,
          pullRequest: promptPullRequest(input.pullRequest),
          baseSha: input.mergeBaseSha,
          headSha: input.pullRequest.headSha,
          changedFiles: input.changedFiles,
          ...(input.repositoryInstructions ? { repositoryInstructions: input.repositoryInstructions } : {}),
          ...(input.guidance ? { guidance: input.guidance } : {}),
          ...(input.ruleInstructions?.length ? { ruleInstructions: input.ruleInstructions } : {}),
          ...(input.focus ? { focus: input.focus } : {}),
          ...(input.knownFindings ? { knownFindings: input.knownFindings } : {}),
          ...(input.pass ? { pass: input.pass } : {}),
          ...(input.angle ? { angle: input.angle } : {}),
        },
        limits: loopLimits(options.limits, input),
        toolCalls: options.provider.toolCalls,
        includeTrace: options.includeTrace ?? true,
        signal: input.signal,
        clock: input.clock,
        onRound: input.onRound,
      }),
    replyTimeoutMs: replyLimits.timeoutMs,
    runReplyLoop: async (input) =>
      runReplyLoop({
        provider: chat,
        tools: toolsFor(input.view),
        model: options.provider.model,
        prompt: { ...input.prompt, code: await codeExcerpt(input.view, input.prompt.finding) },
        limits:
          input.maxTokens === undefined
            ? replyLimits
            : { ...replyLimits, maxTokens: Math.min(replyLimits.maxTokens, input.maxTokens) },
        toolCalls: options.provider.toolCalls,
        includeTrace: false,
        signal: input.signal,
        clock: input.clock,
      }),
    planReview: planPublication,
    reviewLimits: options.limits,
    verifyFinding: async ({ view, finding, limits, signal, clock, ...input }) => {
      const ran = await runVerifyLoop({
        provider: chat,
        tools: toolsFor(view),
        model: options.provider.model,
        prompt: { ...input, finding, code: await codeExcerpt(view, anchorOf(finding)) },
        limits: { ...options.limits, ...limits },
        toolCalls: options.provider.toolCalls,
        includeTrace: false,
        signal,
        clock,
      });
      const quote = ran.answer?.verdict === "refuted" ? ran.answer.quote : null;
      const quotes = await quotesInHead(view, finding, quote);
      return { ...ran, refutation_proven: quotes.refutes, evidence_quoted: quotes.evidenceQuoted };
    },
  };
}

/** The operator's limits, or a pass's share of them, within the tokens the spend budget granted. */
function loopLimits(limits: ReviewLimits, input: LoopInput<Workspace>): ReviewLimits {
  const shared = input.share === undefined ? limits : { ...limits, ...input.share };
  return withinGrant(shared, input.maxTokens ?? null);
}

/** A candidate finding's lines, as the code excerpt of a thread reads them. */
function anchorOf(finding: Finding) {
  return { path: finding.path, line: finding.end_line ?? finding.line, startLine: finding.line };
}

/** A local change has no pull request to describe: the prompt then says nothing of one. */
function promptPullRequest(pr: PullRequest): ReviewPromptInput["pullRequest"] {
  const page = hostedPage(pr);
  return page === null ? null : { ...page, body: pr.body ?? "" };
}
