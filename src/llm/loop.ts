// The bounded native tool loop. Each round sends the exact history, validates the whole turn
// before any call runs, replays the assistant message exactly as received (a deep copy, every
// field) followed by the tool results in call order, and stops for exactly one reason.

import type { ReviewLimits } from "../config/review-limits.ts";
import type { TerminationReason } from "../outcome.ts";
import { readRepositoryTextFile } from "../tools/repository-file.ts";
import type { ToolRegistry } from "../tools/types.ts";
import type { RepositoryView } from "../workspace/types.ts";
import { type BudgetStop, budgetReason, isErrorReason, nextRoundBudget } from "./budget.ts";
import { readEnvelope } from "./envelope.ts";
import { type FindingFileCheck, validateFinalReview } from "./final-review.ts";
import { buildInitialMessages, FINAL_ANSWER_INSTRUCTION, type ReviewPromptInput } from "./prompt.ts";
import type { ChatMessage, ChatProvider, ChatRequestBody } from "./provider.ts";
import { runTools } from "./run-tools.ts";
import { type ProtocolAction, traceTurn } from "./trace.ts";
import type { FinalReview, LoopResult, RoundProgress, TraceTurn, Usage } from "./types.ts";
import { validateTurn } from "./validate-turn.ts";

export type { ReviewPromptInput } from "./prompt.ts";

export interface ReviewLoopOptions {
  provider: ChatProvider;
  tools: ToolRegistry;
  view: RepositoryView;
  model: string;
  prompt: ReviewPromptInput;
  limits: ReviewLimits;
  includeTrace: boolean;
  signal?: AbortSignal;
  onRound?: (progress: RoundProgress) => void | Promise<void>;
  now?: () => number;
  /** Finding path check; defaults to the read tool's own rules against the head commit. */
  checkFindingFile?: FindingFileCheck;
}

interface Ending {
  reason: TerminationReason;
  review?: FinalReview;
  retryAfterSeconds?: number;
}

export async function runReviewLoop(options: ReviewLoopOptions): Promise<LoopResult> {
  const { provider, tools, limits } = options;
  const now = options.now ?? Date.now;
  const signal = options.signal ?? new AbortController().signal;
  const checkFile = options.checkFindingFile ?? defaultFileCheck(options.view);
  const started = now();
  const deadline = started + limits.timeoutMs;
  const messages: ChatMessage[] = buildInitialMessages(options.prompt);
  const seenIds = new Set<string>();
  const trace: TraceTurn[] = [];
  let usage: Usage = { prompt_tokens: 0, completion_tokens: 0, total_tokens: 0 };
  let rounds = 0;
  let toolCalls = 0;
  let toolContentBytes = 0;
  let lastRoundTokens = 0;
  let longestRoundMs = 0;
  let budget: BudgetStop | null = null;

  const finish = (ending: Ending): LoopResult => ({
    termination_reason: ending.reason,
    review: ending.review ?? null,
    usage,
    rounds,
    tool_calls: toolCalls,
    duration_ms: Math.max(0, Math.round(now() - started)),
    trace: options.includeTrace && !isErrorReason(ending.reason) ? trace : null,
    ...(ending.retryAfterSeconds === undefined ? {} : { retry_after_seconds: ending.retryAfterSeconds }),
  });

  for (;;) {
    if (signal.aborted) return finish({ reason: "cancelled" });
    if (now() >= deadline) return finish({ reason: "review_timeout" });
    budget ??= nextRoundBudget(
      {
        roundsDone: rounds,
        toolCalls,
        totalTokens: usage.total_tokens,
        lastRoundTokens,
        longestRoundMs,
        now: now(),
        deadline,
      },
      limits,
    );
    const finalRound = budget !== null;
    const history = finalRound
      ? [...messages, { role: "user", content: FINAL_ANSWER_INSTRUCTION }]
      : messages;
    // A copy per request: whatever the provider does with its body cannot reach our history.
    const body: ChatRequestBody = {
      model: options.model,
      messages: structuredClone(history),
      tools: tools.schemas,
      tool_choice: finalRound ? "none" : "auto",
    };
    rounds++;
    const sentAt = now();
    const outcome = await provider.complete(body, { signal, deadline });
    longestRoundMs = Math.max(longestRoundMs, now() - sentAt);
    if (outcome.kind === "failure") {
      return finish({ reason: outcome.reason, retryAfterSeconds: outcome.retryAfterSeconds });
    }
    const envelope = readEnvelope(outcome.body);
    if (envelope.usage !== null) usage = addUsage(usage, envelope.usage);
    lastRoundTokens = envelope.usage?.total_tokens ?? 0;
    const report = async (action: ProtocolAction, calls: TraceTurn["tool_calls"] = []): Promise<void> => {
      trace.push(traceTurn(rounds, envelope, action, calls));
      await options.onRound?.({
        round: rounds,
        maxRounds: limits.maxRounds,
        toolCalls,
        totalTokens: usage.total_tokens,
      });
    };
    const failedBudget = (): Ending => ({ reason: budgetReason(budget ?? "max_rounds") });

    const verdict = validateTurn(outcome.body, {
      registry: tools,
      seenIds,
      toolCallsSoFar: toolCalls,
      maxToolCallsPerRound: limits.maxToolCallsPerRound,
      maxToolCalls: limits.maxToolCalls,
    });
    if (verdict.kind === "stop") {
      const final = await validateFinalReview(verdict.content, checkFile);
      await report(final.ok ? "final_review" : "terminate");
      if (final.ok) return finish({ reason: "final_review", review: final.review });
      return finish(finalRound ? failedBudget() : { reason: "invalid_model_response" });
    }
    if (verdict.kind === "reject") {
      if (!finalRound && verdict.reason === "max_tool_calls") {
        // Over the call budget: none of these calls runs, and the turn is left out of the history.
        budget = "max_tool_calls";
        await report("request_final_answer");
        continue;
      }
      await report("terminate");
      return finish(finalRound ? failedBudget() : { reason: verdict.reason });
    }
    if (finalRound) {
      // tool_choice "none" was ignored: the final answer round failed.
      await report("terminate");
      return finish(failedBudget());
    }
    const executed = await runTools(verdict.calls, tools, signal, limits.tracePreviewBytes);
    if (executed === "cancelled") return finish({ reason: "cancelled" });
    toolCalls += verdict.calls.length;
    if (toolContentBytes + executed.contentBytes > limits.maxToolContentBytes) {
      // These results would push the conversation over its content cap: they are not sent.
      budget = "tool_content";
      await report("request_final_answer", executed.trace);
      continue;
    }
    toolContentBytes += executed.contentBytes;
    for (const call of verdict.calls) seenIds.add(call.id);
    messages.push(structuredClone(verdict.message) as ChatMessage, ...executed.messages);
    await report("execute_tools", executed.trace);
  }
}

function addUsage(a: Usage, b: Usage): Usage {
  return {
    prompt_tokens: a.prompt_tokens + b.prompt_tokens,
    completion_tokens: a.completion_tokens + b.completion_tokens,
    total_tokens: a.total_tokens + b.total_tokens,
  };
}

function defaultFileCheck(view: RepositoryView): FindingFileCheck {
  return async (path) => {
    const file = await readRepositoryTextFile(view, path);
    return file.ok ? { ok: true, lineCount: file.lineCount } : { ok: false };
  };
}
