// A turn of the tool loop that ends with text instead of tool calls: the final answer when it
// validates, else one repair round (the failures told to the model) when none was sent yet and the
// budgets leave room, else the end the first failure decided.

import type { Envelope } from "./envelope.ts";
import { type LimitStop, limitReason, repairRoundLimit } from "./loop-limits.ts";
import type { PendingRepair, ToolLoopOptions } from "./loop-options.ts";
import { closeRound, type RoundResponse, tally } from "./loop-rounds.ts";
import type { LoopState } from "./loop-state.ts";
import type { ChatMessage } from "./provider.ts";
import { repairHistory } from "./repair.ts";
import type { TransportChoice } from "./transport/choose.ts";
import { stripMarkerText } from "./transport/markers.ts";
import type { RepairRound, ToolLoopResult } from "./types.ts";

export interface RoundContext<T> {
  readonly options: ToolLoopOptions<T>;
  readonly transports: TransportChoice;
  readonly envelope: Envelope;
  readonly response: RoundResponse;
  readonly history: readonly ChatMessage[];
  /** The limit this round answers for, when it is the final-answer round. */
  readonly reached: LimitStop | null;
}

/**
 * A turn that ends with text: the final answer if it validates; otherwise one repair round, when
 * none was sent yet and the budgets leave room for it ("repair": the loop goes on).
 */
export async function answerRound<T>(
  state: LoopState<T>,
  round: RoundContext<T>,
  verdict: { readonly content: unknown; readonly message: Record<string, unknown> },
): Promise<ToolLoopResult<T> | "repair"> {
  const { answer, limits } = round.options;
  const { envelope, response } = round;
  const final = await answer.validate(verdict.content);
  if (final.ok) {
    state.settleRepair("repaired");
    await state.report(closeRound(response, "final_review"), envelope);
    const value = round.transports.offersMarkers ? answer.mapText(final.value, stripMarkerText) : final.value;
    return state.finish({ reason: "final_review", answer: value });
  }
  if (state.repair !== null) return repairFailed(state, round, state.repair, final.failures);
  const fallback = round.reached !== null ? limitReason(round.reached) : "invalid_model_response";
  const failed = state.roundInFlight();
  const record: RepairRound = { failed_round: failed, failures: final.failures, outcome: "failed" };
  // The repair round must fit after this one: its record counts.
  const asking = closeRound(response, "request_repair");
  const noRoom = repairRoundLimit(tally([...state.rounds, asking]), state.clock(), limits);
  if (noRoom !== null) {
    state.repairNotSent({ ...record, outcome: "not_sent", budget: noRoom });
    await state.report(closeRound(response, "terminate"), envelope, [], final.failures);
    return state.finish({ reason: fallback, validationFailures: final.failures });
  }
  const instruction = answer.repairInstruction(final.failures);
  state.requestRepair({
    history: repairHistory(round.history, verdict.message, instruction),
    record,
    fallback,
  });
  await state.report(asking, envelope, [], final.failures);
  return "repair";
}

/**
 * The repair round's answer, when it is no valid final answer: the loop ends as the first failure
 * would have ended it, and what was wrong is kept for the check run.
 */
export async function repairFailed<T>(
  state: LoopState<T>,
  turn: { readonly envelope: Envelope; readonly response: RoundResponse },
  pending: PendingRepair,
  failures?: readonly string[],
): Promise<ToolLoopResult<T>> {
  state.settleRepair(failures === undefined ? "not_a_review" : "failed");
  await state.report(closeRound(turn.response, "terminate"), turn.envelope, [], failures);
  return state.finish({ reason: pending.fallback, validationFailures: failures ?? pending.record.failures });
}
