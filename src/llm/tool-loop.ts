// The bounded tool loop. Each round sends the exact history, validates the whole turn before any
// call runs, replays the assistant message exactly as received (a deep copy, every field)
// followed by the tool results in call order, and stops for exactly one reason. The loop is
// generic over its final answer (a review, or a reply in a review thread: final-answer.ts); an
// answer that fails validation gets one repair round before the loop gives up. How calls travel
// (native tool_calls or text markers) is the turn transport's business (transport/).

import {
  type BudgetState,
  type BudgetStop,
  budgetReason,
  isErrorReason,
  nextRoundBudget,
  repairRoundBudget,
} from "./budget.ts";
import { addUsage, readEnvelope } from "./envelope.ts";
import type { Ending, PendingRepair, ToolLoopOptions } from "./loop-options.ts";
import type { ChatMessage } from "./provider.ts";
import { failureDetail } from "./provider-hint.ts";
import { repairHistory } from "./repair.ts";
import { runTools } from "./run-tools.ts";
import { type ProtocolAction, traceSwitch, traceTurn } from "./trace.ts";
import { MARKER_REMINDER } from "./transport/catalog.ts";
import { chooseTransport } from "./transport/choose.ts";
import { stripMarkerText } from "./transport/markers.ts";
import type { RepairRound, ToolLoopResult, TraceTurn, Usage } from "./types.ts";

export async function runToolLoop<T>(options: ToolLoopOptions<T>): Promise<ToolLoopResult<T>> {
  const { provider, tools, limits, answer } = options;
  const now = options.now ?? Date.now;
  const signal = options.signal ?? new AbortController().signal;
  const started = now();
  const deadline = started + limits.timeoutMs;
  const messages: ChatMessage[] = structuredClone([...options.messages]);
  const seenIds = new Set<string>();
  const trace: TraceTurn[] = [];
  let usage: Usage = { prompt_tokens: 0, completion_tokens: 0, total_tokens: 0 };
  let rounds = 0;
  let toolCalls = 0;
  let toolContentBytes = 0;
  let lastRoundTokens = 0;
  let longestRoundMs = 0;
  let budget: BudgetStop | null = null;
  let repair: PendingRepair | null = null;
  let repairRecord: RepairRound | undefined;
  const budgetState = (): BudgetState => ({
    roundsDone: rounds,
    toolCalls,
    totalTokens: usage.total_tokens,
    lastRoundTokens,
    longestRoundMs,
    now: now(),
    deadline,
  });
  const settleRepair = (outcome: RepairRound["outcome"]): void => {
    if (repairRecord !== undefined && repair !== null) repairRecord = { ...repairRecord, outcome };
  };
  let reminded = false;
  const transports = chooseTransport(options.toolCalls ?? "native", {
    model: options.model,
    schemas: tools.schemas,
    maxCallsPerRound: limits.maxToolCallsPerRound,
  });

  const finish = (ending: Ending<T>): ToolLoopResult<T> => ({
    termination_reason: ending.reason,
    answer: ending.answer ?? null,
    usage,
    rounds,
    tool_calls: toolCalls,
    duration_ms: Math.max(0, Math.round(now() - started)),
    trace: options.includeTrace && !isErrorReason(ending.reason) ? trace : null,
    ...(ending.retryAfterSeconds === undefined ? {} : { retry_after_seconds: ending.retryAfterSeconds }),
    ...(repairRecord === undefined ? {} : { repair: repairRecord }),
    ...(ending.validationFailures === undefined ? {} : { validation_failures: ending.validationFailures }),
    ...(ending.providerFailure === undefined ? {} : { provider_failure: ending.providerFailure }),
    tool_call_transport: transports.current.kind,
    ...(transports.switched === null ? {} : { tool_call_switch: transports.switched }),
  });
  const interrupted = (ending: Ending<T>): ToolLoopResult<T> => {
    settleRepair("interrupted");
    return finish(ending);
  };

  for (;;) {
    if (signal.aborted) return interrupted({ reason: "cancelled" });
    if (now() >= deadline) return interrupted({ reason: "review_timeout" });
    if (repair === null) budget ??= nextRoundBudget(budgetState(), limits);
    const finalRound = budget !== null;
    const history: ChatMessage[] =
      repair?.history ??
      (finalRound ? [...messages, { role: "user", content: answer.finalInstruction }] : messages);
    // A copy per request: whatever the provider does with its body cannot reach our history.
    const body = transports.current.request(history, finalRound || repair !== null);
    rounds++;
    const sentAt = now();
    const outcome = await provider.complete(body, { signal, deadline });
    longestRoundMs = Math.max(longestRoundMs, now() - sentAt);
    if (outcome.kind === "failure") {
      if (transports.switchOnRefusal(outcome, rounds)) {
        // The endpoint takes no `tools`: the same round again, as text. A refused request is not
        // a model turn, so it does not use up a round.
        trace.push(traceSwitch(rounds));
        rounds--;
        continue;
      }
      const detail = failureDetail(outcome);
      return interrupted({
        reason: outcome.reason,
        retryAfterSeconds: outcome.retryAfterSeconds,
        ...(detail === undefined ? {} : { providerFailure: detail }),
      });
    }
    const envelope = readEnvelope(outcome.body);
    if (envelope.usage !== null) usage = addUsage(usage, envelope.usage);
    lastRoundTokens = envelope.usage?.total_tokens ?? 0;
    const report = async (
      action: ProtocolAction,
      calls: TraceTurn["tool_calls"] = [],
      failures?: readonly string[],
    ): Promise<void> => {
      trace.push(traceTurn(rounds, envelope, action, calls, failures));
      await options.onRound?.({
        round: rounds,
        maxRounds: limits.maxRounds,
        toolCalls,
        totalTokens: usage.total_tokens,
      });
    };
    const failedBudget = (): Ending<T> => ({ reason: budgetReason(budget ?? "max_rounds") });
    if (transports.settle(outcome.body, rounds)) trace.push(traceSwitch(rounds));
    const verdict = transports.current.read(outcome.body, {
      registry: tools,
      seenIds,
      toolCallsSoFar: toolCalls,
      maxToolCallsPerRound: limits.maxToolCallsPerRound,
      maxToolCalls: limits.maxToolCalls,
    });
    // The repair round's answer, when it is no valid final answer: the loop ends as the first
    // failure would have ended it, and what was wrong is kept for the check run.
    const repairFailed = async (
      pending: PendingRepair,
      failures?: readonly string[],
    ): Promise<ToolLoopResult<T>> => {
      settleRepair(failures === undefined ? "not_a_review" : "failed");
      await report("terminate", [], failures);
      return finish({ reason: pending.fallback, validationFailures: failures ?? pending.record.failures });
    };
    if (verdict.kind === "stop") {
      const final = await answer.validate(verdict.content);
      if (final.ok) {
        settleRepair("repaired");
        await report("final_review");
        const value = transports.offersMarkers ? answer.mapText(final.value, stripMarkerText) : final.value;
        return finish({ reason: "final_review", answer: value });
      }
      if (repair !== null) return repairFailed(repair, final.failures);
      const fallback = finalRound ? failedBudget().reason : "invalid_model_response";
      const record: RepairRound = { failed_round: rounds, failures: final.failures, outcome: "failed" };
      const noRoom = repairRoundBudget(budgetState(), limits);
      if (noRoom !== null) {
        repairRecord = { ...record, outcome: "not_sent", budget: noRoom };
        await report("terminate", [], final.failures);
        return finish({ reason: fallback, validationFailures: final.failures });
      }
      repairRecord = record;
      const instruction = answer.repairInstruction(final.failures);
      repair = { history: repairHistory(history, verdict.message, instruction), record, fallback };
      await report("request_repair", [], final.failures);
      continue;
    }
    if (repair !== null) return repairFailed(repair);
    if (verdict.kind === "no_call") {
      // A promise is not a call. One reminder; after that such a turn spends the round budget.
      if (!finalRound && !reminded) {
        reminded = true;
        messages.push(structuredClone(verdict.message) as ChatMessage, {
          role: "user",
          content: MARKER_REMINDER,
        });
        await report("remind_marker");
        continue;
      }
      if (!finalRound) {
        budget = "max_rounds";
        await report("request_final_answer");
        continue;
      }
      await report("terminate");
      return finish(failedBudget());
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
    messages.push(
      structuredClone(verdict.message) as ChatMessage,
      ...transports.current.results(verdict.calls, executed.messages),
    );
    await report("execute_tools", executed.trace);
  }
}
