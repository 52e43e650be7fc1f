// The tool loop's rounds, recorded once each and never changed: what the provider answered (usage,
// spend, finish reason, how long it took, its ids) and what the loop did with it (its action, the
// tool calls it counted and ran, the result bytes it sent back). Every count the loop's limits and
// its result read is a fold over this list (loop-limits.ts holds the rules), and the trace is this
// list as the protocol shows it (trace.ts): one record per round, so nothing can drift from it.

import { addSpend, NO_SPEND, type Spend } from "../domain/spend.ts";
import { addUsage } from "./envelope.ts";
import type { ProtocolAction, TraceToolCall, Usage } from "./types.ts";

/** A limit that stops the loop. "tool_content" ends as invalid_model_response (the protocol's wording). */
export type LimitStop = "max_rounds" | "max_tool_calls" | "token_budget" | "review_timeout" | "tool_content";

/**
 * What the loop did with a round: a protocol action, or one of three ends without a turn to act
 * on. A "refused" request (the endpoint takes no `tools`, so the round is sent again as text) is
 * not a model turn and is no round, though its time counts; a "failed" one ended the loop with a
 * provider failure; a "cancelled" one was cancelled while its calls ran.
 */
export type RoundAction = TurnAction | "refused" | "failed" | "cancelled";

/** What the loop did with a model turn (the trace's actions; a switch is no turn). */
export type TurnAction = Exclude<ProtocolAction, "switch_to_text_tool_calls">;

/** What the provider's answer to one request was, before the loop acts on it. */
export interface RoundResponse {
  readonly durationMs: number;
  readonly usage: Usage | null;
  readonly spend: Spend | null;
  readonly finishReason: string | null;
}

export interface RoundRecord extends RoundResponse {
  readonly action: RoundAction;
  /** The calls of the turn that count against the call budget (run, or over the content cap). */
  readonly toolCalls: number;
  /** The bytes of tool results sent back to the model. */
  readonly toolContentBytes: number;
  /** For request_final_answer: the limit this turn reached, which the next round answers for. */
  readonly stop?: LimitStop;
  /** A model turn's ids, the calls it ran and the checks its answer failed: the rest of its trace entry. */
  readonly turn?: Readonly<{ id: string | null; model: string | null; calls: readonly TraceToolCall[] }> & {
    readonly failures?: readonly string[];
  };
  /** Auto mode left native calls for text markers before this round: an entry of its own in the trace. */
  readonly switched?: true;
}

/** A response without a turn: no usage, no spend. */
export const NO_RESPONSE = (durationMs: number): RoundResponse => ({
  durationMs,
  usage: null,
  spend: null,
  finishReason: null,
});

/** The round closed with `action`, no calls counted and nothing sent back unless told. */
export function closeRound<A extends RoundAction>(
  response: RoundResponse,
  action: A,
  counted: Partial<Pick<RoundRecord, "toolCalls" | "toolContentBytes" | "stop">> = {},
): RoundRecord & { readonly action: A } {
  return { ...response, action, toolCalls: 0, toolContentBytes: 0, ...counted };
}

export interface RoundsTally {
  /** Model turns asked for, the failed request included and a refused one not. */
  readonly rounds: number;
  readonly toolCalls: number;
  readonly usage: Usage;
  readonly spend: Spend;
  readonly toolContentBytes: number;
  /** total_tokens of the last answered round: the next prompt is at least that large (it only grows). */
  readonly lastRoundTokens: number;
  /** The slowest request so far, refused and failed ones included. */
  readonly longestRoundMs: number;
}

const NO_ROUNDS: RoundsTally = {
  rounds: 0,
  toolCalls: 0,
  usage: { prompt_tokens: 0, completion_tokens: 0, total_tokens: 0 },
  spend: NO_SPEND,
  toolContentBytes: 0,
  lastRoundTokens: 0,
  longestRoundMs: 0,
};

export function tally(records: readonly RoundRecord[]): RoundsTally {
  return records.reduce<RoundsTally>((sum, round) => {
    const answered = round.action !== "refused" && round.action !== "failed";
    return {
      rounds: sum.rounds + (round.action === "refused" ? 0 : 1),
      toolCalls: sum.toolCalls + round.toolCalls,
      usage: round.usage === null ? sum.usage : addUsage(sum.usage, round.usage),
      spend: round.spend === null ? sum.spend : addSpend(sum.spend, round.spend),
      toolContentBytes: sum.toolContentBytes + round.toolContentBytes,
      lastRoundTokens: answered ? (round.usage?.total_tokens ?? 0) : sum.lastRoundTokens,
      longestRoundMs: Math.max(sum.longestRoundMs, round.durationMs),
    };
  }, NO_ROUNDS);
}

/** The budget the last model turn reached, when it asked for the final answer. */
export function requestedStop(records: readonly RoundRecord[]): LimitStop | null {
  const last = records.findLast((round) => round.action !== "refused");
  return last?.action === "request_final_answer" ? (last.stop ?? null) : null;
}
