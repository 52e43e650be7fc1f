// The bounded tool loop. Each round sends the exact history, validates the whole turn before any
// call runs, replays the assistant message exactly as received (a deep copy, every field)
// followed by the tool results in call order, and stops for exactly one reason. The loop is
// generic over its final answer (a review, or a reply in a review thread: final-answer.ts); an
// answer that fails validation gets one repair round before the loop gives up. How calls travel
// (native tool_calls or text markers) is the turn transport's business (transport/). What the
// loop counts, and how that becomes its result, is loop-state.ts; a turn that ends with text,
// answer-round.ts.

import { addSpend } from "../domain/spend.ts";
import { answerRound, repairFailed } from "./answer-round.ts";
import { budgetReason, nextRoundBudget } from "./budget.ts";
import { addUsage, type Envelope, readEnvelope } from "./envelope.ts";
import type { Ending, ToolLoopOptions } from "./loop-options.ts";
import { LoopState } from "./loop-state.ts";
import type { ChatMessage } from "./provider.ts";
import { failureDetail } from "./provider-hint.ts";
import { runTools } from "./run-tools.ts";
import { traceSwitch } from "./trace.ts";
import { MARKER_REMINDER } from "./transport/catalog.ts";
import { chooseTransport, type TransportChoice } from "./transport/choose.ts";
import type { TransportVerdict } from "./transport/types.ts";
import type { ToolLoopResult } from "./types.ts";

/** What one round decided: go on with the next round, or the loop's result. */
type Step<T> = "next" | ToolLoopResult<T>;

interface Loop<T> {
  readonly options: ToolLoopOptions<T>;
  readonly state: LoopState<T>;
  readonly transports: TransportChoice;
  readonly signal: AbortSignal;
  readonly now: () => number;
}

export async function runToolLoop<T>(options: ToolLoopOptions<T>): Promise<ToolLoopResult<T>> {
  const now = options.now ?? Date.now;
  const transports = chooseTransport(options.toolCalls ?? "native", {
    model: options.model,
    schemas: options.tools.schemas,
    maxCallsPerRound: options.limits.maxToolCallsPerRound,
  });
  const state = new LoopState<T>({
    messages: options.messages,
    limits: options.limits,
    includeTrace: options.includeTrace,
    transports,
    now,
    ...(options.onRound === undefined ? {} : { onRound: options.onRound }),
  });
  const loop: Loop<T> = {
    options,
    state,
    transports,
    now,
    signal: options.signal ?? new AbortController().signal,
  };
  for (;;) {
    const step = await round(loop);
    if (step !== "next") return step;
  }
}

/** One request to the provider and what its answer decides. */
async function round<T>(loop: Loop<T>): Promise<Step<T>> {
  const { options, state, transports, signal, now } = loop;
  const { limits, answer } = options;
  if (signal.aborted) return state.interrupted({ reason: "cancelled" });
  if (now() >= state.deadline) return state.interrupted({ reason: "review_timeout" });
  if (state.repair === null) state.budget ??= nextRoundBudget(state.budgetState(), limits);
  const finalRound = state.budget !== null;
  const history: ChatMessage[] =
    state.repair?.history ??
    (finalRound ? [...state.messages, { role: "user", content: answer.finalInstruction }] : state.messages);
  // A copy per request: whatever the provider does with its body cannot reach our history.
  const body = transports.current.request(history, finalRound || state.repair !== null);
  state.rounds++;
  const sentAt = now();
  const outcome = await options.provider.complete(body, { signal, deadline: state.deadline });
  state.longestRoundMs = Math.max(state.longestRoundMs, now() - sentAt);
  if (outcome.kind === "failure") {
    if (transports.switchOnRefusal(outcome, state.rounds)) {
      // The endpoint takes no `tools`: the same round again, as text. A refused request is not
      // a model turn, so it does not use up a round.
      state.trace.push(traceSwitch(state.rounds));
      state.rounds--;
      return "next";
    }
    const detail = failureDetail(outcome);
    return state.interrupted({
      reason: outcome.reason,
      retryAfterSeconds: outcome.retryAfterSeconds,
      ...(detail === undefined ? {} : { providerFailure: detail }),
    });
  }
  const envelope = readEnvelope(outcome.body);
  if (envelope.usage !== null) state.usage = addUsage(state.usage, envelope.usage);
  if (envelope.spend !== null) state.spend = addSpend(state.spend, envelope.spend);
  state.lastRoundTokens = envelope.usage?.total_tokens ?? 0;
  if (transports.settle(outcome.body, state.rounds)) state.trace.push(traceSwitch(state.rounds));
  const verdict = transports.current.read(outcome.body, {
    registry: options.tools,
    seenIds: state.seenIds,
    toolCallsSoFar: state.toolCalls,
    maxToolCallsPerRound: limits.maxToolCallsPerRound,
    maxToolCalls: limits.maxToolCalls,
  });
  if (verdict.kind === "stop") {
    const step = await answerRound(state, { options, transports, envelope, history, finalRound }, verdict);
    return step === "repair" ? "next" : step;
  }
  if (state.repair !== null) return repairFailed(state, envelope, state.repair);
  return callTurn(loop, envelope, verdict, finalRound);
}

/** A turn that calls tools (or, in text mode, only promises to): run them, or end the loop. */
async function callTurn<T>(
  loop: Loop<T>,
  envelope: Envelope,
  verdict: Exclude<TransportVerdict, { kind: "stop" }>,
  finalRound: boolean,
): Promise<Step<T>> {
  const { state, transports, signal } = loop;
  const { limits, tools } = loop.options;
  const failedBudget = (): Ending<T> => ({ reason: budgetReason(state.budget ?? "max_rounds") });
  if (verdict.kind === "no_call") {
    // A promise is not a call. One reminder; after that such a turn spends the round budget.
    if (!finalRound && !state.reminded) {
      state.reminded = true;
      state.messages.push(structuredClone(verdict.message) as ChatMessage, {
        role: "user",
        content: MARKER_REMINDER,
      });
      await state.report(envelope, "remind_marker");
      return "next";
    }
    if (!finalRound) {
      state.budget = "max_rounds";
      await state.report(envelope, "request_final_answer");
      return "next";
    }
    await state.report(envelope, "terminate");
    return state.finish(failedBudget());
  }
  if (verdict.kind === "reject") {
    if (!finalRound && verdict.reason === "max_tool_calls") {
      // Over the call budget: none of these calls runs, and the turn is left out of the history.
      state.budget = "max_tool_calls";
      await state.report(envelope, "request_final_answer");
      return "next";
    }
    await state.report(envelope, "terminate");
    return state.finish(finalRound ? failedBudget() : { reason: verdict.reason });
  }
  if (finalRound) {
    // tool_choice "none" was ignored: the final answer round failed.
    await state.report(envelope, "terminate");
    return state.finish(failedBudget());
  }
  const executed = await runTools(verdict.calls, tools, signal, limits.tracePreviewBytes);
  if (executed === "cancelled") return state.finish({ reason: "cancelled" });
  state.toolCalls += verdict.calls.length;
  if (state.toolContentBytes + executed.contentBytes > limits.maxToolContentBytes) {
    // These results would push the conversation over its content cap: they are not sent.
    state.budget = "tool_content";
    await state.report(envelope, "request_final_answer", executed.trace);
    return "next";
  }
  state.toolContentBytes += executed.contentBytes;
  for (const call of verdict.calls) state.seenIds.add(call.id);
  state.messages.push(
    structuredClone(verdict.message) as ChatMessage,
    ...transports.current.results(verdict.calls, executed.messages),
  );
  await state.report(envelope, "execute_tools", executed.trace);
  return "next";
}
