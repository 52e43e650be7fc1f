// The bounded tool loop. Each round sends the exact history, validates the whole turn before any
// call runs, replays the assistant message exactly as received (a deep copy, every field)
// followed by the tool results in call order, and stops for exactly one reason. The loop is
// generic over its final answer (a review, or a reply in a review thread: final-answer.ts); an
// answer that fails validation gets one repair round before the loop gives up. How calls travel
// (native tool_calls or text markers) is the turn transport's business (transport/). What the
// loop records of each round is loop-rounds.ts, its limits over those records loop-limits.ts,
// what it keeps and how that becomes its result loop-state.ts; a turn that ends with text,
// answer-round.ts.

import { answerRound, repairFailed } from "./answer-round.ts";
import { type Envelope, readEnvelope } from "./envelope.ts";
import { type LimitStop, limitReason, nextRoundLimit } from "./loop-limits.ts";
import type { LoopEnding, ToolLoopOptions } from "./loop-options.ts";
import { closeRound, NO_RESPONSE, type RoundResponse, requestedStop } from "./loop-rounds.ts";
import { LoopState } from "./loop-state.ts";
import type { ChatMessage } from "./provider.ts";
import { failureDetail } from "./provider-hint.ts";
import { runTools } from "./run-tools.ts";
import { MARKER_REMINDER } from "./transport/catalog.ts";
import { chooseTransport, type TransportChoice } from "./transport/choose.ts";
import type { TransportVerdict } from "./transport/types.ts";
import type { ToolLoopResult, TraceTurn } from "./types.ts";

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
  const now = options.clock?.now ?? Date.now;
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
    ...(options.clock === undefined ? {} : { deadline: options.clock.deadline }),
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
  // The repair round answers for no limit; any other round is the final-answer round once a
  // limit is reached: the one the last turn reached, or the one this round would break.
  const reached =
    state.repair === null
      ? (requestedStop(state.rounds) ??
        nextRoundLimit(state.tally(), state.clock(), limits, options.stopWhen))
      : null;
  const finalRound = reached !== null;
  const history: readonly ChatMessage[] =
    state.repair?.history ??
    (finalRound ? [...state.messages, { role: "user", content: answer.finalInstruction }] : state.messages);
  // A copy per request: whatever the provider does with its body cannot reach our history.
  const body = transports.current.request(history, finalRound || state.repair !== null);
  const number = state.roundInFlight();
  const sentAt = now();
  const outcome = await options.provider.complete(body, {
    signal,
    // The provider waits in the machine's time (its HTTP timeouts, the gate's queue): the time left
    // on the loop's clock, from the machine's now.
    deadline: Date.now() + (state.deadline - now()),
    onWait: (wait) => state.waiting(wait),
  });
  const durationMs = now() - sentAt;
  if (outcome.kind === "failure") {
    if (transports.switchOnRefusal(outcome, number)) {
      // The endpoint takes no `tools`: the same round again, as text. A refused request is not
      // a model turn, so it does not use up a round.
      state.switched();
      state.record(closeRound(NO_RESPONSE(durationMs), "refused"));
      return "next";
    }
    state.record(closeRound(NO_RESPONSE(durationMs), "failed"));
    const detail = failureDetail(outcome);
    return state.interrupted({
      reason: outcome.reason,
      retryAfterSeconds: outcome.retryAfterSeconds,
      ...(detail === undefined ? {} : { providerFailure: detail }),
    });
  }
  const envelope = readEnvelope(outcome.body);
  const { usage, spend, finishReason } = envelope;
  const response: RoundResponse = { durationMs, usage, spend, finishReason };
  if (transports.settle(outcome.body, number)) state.switched();
  const verdict = transports.current.read(outcome.body, {
    registry: options.tools,
    seenIds: state.seenIds,
    toolCallsSoFar: state.tally().toolCalls,
    maxToolCallsPerRound: limits.maxToolCallsPerRound,
    maxToolCalls: limits.maxToolCalls,
  });
  const turn: Turn = { envelope, response, reached };
  if (verdict.kind === "stop") {
    const step = await answerRound(state, { options, transports, history, ...turn }, verdict);
    return step === "repair" ? "next" : step;
  }
  if (state.repair !== null) return repairFailed(state, turn, state.repair);
  return callTurn(loop, turn, verdict);
}

/** A provider turn: its metadata, the answer as recorded, and the limit its round answers for. */
interface Turn {
  readonly envelope: Envelope;
  readonly response: RoundResponse;
  readonly reached: LimitStop | null;
}

/** A turn that calls tools (or, in text mode, only promises to): run them, or end the loop. */
async function callTurn<T>(
  loop: Loop<T>,
  turn: Turn,
  verdict: Exclude<TransportVerdict, { kind: "stop" }>,
): Promise<Step<T>> {
  const { state, transports, signal } = loop;
  const { limits, tools } = loop.options;
  const { envelope, response, reached } = turn;
  const finalRound = reached !== null;
  const failedLimit = (): LoopEnding<T> => ({ reason: limitReason(reached ?? "max_rounds") });
  const terminate = async (ending: LoopEnding<T>): Promise<Step<T>> => {
    await state.report(closeRound(response, "terminate"), envelope);
    return state.finish(ending);
  };
  const askFinal = async (stop: LimitStop, counted: number, calls: TraceCalls = []): Promise<Step<T>> => {
    await state.report(
      closeRound(response, "request_final_answer", { stop, toolCalls: counted }),
      envelope,
      calls,
    );
    return "next";
  };
  if (verdict.kind === "no_call") {
    // A promise is not a call. One reminder; after that such a turn spends the round budget.
    if (finalRound) return terminate(failedLimit());
    if (state.rounds.some((round) => round.action === "remind_marker")) return askFinal("max_rounds", 0);
    state.extend([
      structuredClone(verdict.message) as ChatMessage,
      { role: "user", content: MARKER_REMINDER },
    ]);
    await state.report(closeRound(response, "remind_marker"), envelope);
    return "next";
  }
  if (verdict.kind === "reject") {
    // Over the call budget: none of these calls runs, and the turn is left out of the history.
    if (!finalRound && verdict.reason === "max_tool_calls") return askFinal("max_tool_calls", 0);
    return terminate(finalRound ? failedLimit() : { reason: verdict.reason });
  }
  // tool_choice "none" was ignored: the final answer round failed.
  if (finalRound) return terminate(failedLimit());
  const executed = await runTools(verdict.calls, tools, signal, limits.tracePreviewBytes);
  if (executed === "cancelled") {
    state.record(closeRound(response, "cancelled"));
    return state.finish({ reason: "cancelled" });
  }
  const counted = verdict.calls.length;
  if (state.tally().toolContentBytes + executed.contentBytes > limits.maxToolContentBytes) {
    // These results would push the conversation over its content cap: they are not sent.
    return askFinal("tool_content", counted, executed.trace);
  }
  state.extend(
    [
      structuredClone(verdict.message) as ChatMessage,
      ...transports.current.results(verdict.calls, executed.messages),
    ],
    verdict.calls.map((call) => call.id),
  );
  const sent = { toolCalls: counted, toolContentBytes: executed.contentBytes };
  await state.report(closeRound(response, "execute_tools", sent), envelope, executed.trace);
  return "next";
}

type TraceCalls = TraceTurn["tool_calls"];
