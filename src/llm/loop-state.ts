// What the tool loop keeps while it runs, and how that becomes its result. The rounds are an
// append-only list of records (loop-rounds.ts): every count the budgets and the result read is a
// fold over them, and the trace is a view of them. Besides them the loop keeps only what a round
// adds to: the conversation it sends, the tool call ids already answered, and the one repair round.
// Nothing here is written from outside but through these methods.

import type { ReviewLimits } from "../config/review-limits.ts";
import type { Envelope } from "./envelope.ts";
import { isErrorReason, type LoopClock } from "./loop-limits.ts";
import type { LoopEnding, PendingRepair } from "./loop-options.ts";
import { type RoundRecord, type RoundsTally, type TurnAction, tally } from "./loop-rounds.ts";
import type { ChatMessage } from "./provider.ts";
import type { ProviderWait } from "./provider-gate.ts";
import { traceOf } from "./trace.ts";
import type { TransportChoice } from "./transport/choose.ts";
import type { RepairRound, RoundProgress, ToolLoopResult, TraceTurn } from "./types.ts";

export interface LoopStateOptions {
  readonly messages: readonly ChatMessage[];
  readonly limits: ReviewLimits;
  readonly includeTrace: boolean;
  readonly transports: TransportChoice;
  readonly now: () => number;
  readonly deadline?: number;
  readonly onRound?: (progress: RoundProgress) => void | Promise<void>;
}

export class LoopState<T> {
  readonly deadline: number;
  readonly #options: LoopStateOptions;
  readonly #started: number;
  /** The conversation so far, a private deep copy (the caller's messages are never touched). */
  readonly #messages: ChatMessage[];
  /** Tool call ids already answered: a repeated id is a protocol violation. */
  readonly #seenIds = new Set<string>();
  #rounds: readonly RoundRecord[] = [];
  #switched = false; // auto mode switched to text markers: the next round's record says so
  #repair: PendingRepair | null = null;
  #repairRecord: RepairRound | undefined;

  constructor(options: LoopStateOptions) {
    this.#options = options;
    this.#messages = structuredClone([...options.messages]);
    this.#started = options.now();
    this.deadline = Math.min(this.#started + options.limits.timeoutMs, options.deadline ?? Infinity);
  }

  get rounds(): readonly RoundRecord[] {
    return this.#rounds;
  }
  get messages(): readonly ChatMessage[] {
    return this.#messages;
  }
  get seenIds(): ReadonlySet<string> {
    return this.#seenIds;
  }
  /** The repair round in flight, once one was asked for. */
  get repair(): PendingRepair | null {
    return this.#repair;
  }

  tally(): RoundsTally {
    return tally(this.#rounds);
  }
  clock(): LoopClock {
    return { now: this.#options.now, deadline: this.deadline };
  }
  /** The number of the round in flight (its record is not written yet). */
  roundInFlight(): number {
    return this.tally().rounds + 1;
  }

  /** A turn that goes on: its messages join the conversation, its call ids are answered. */
  extend(messages: readonly ChatMessage[], answeredIds: readonly string[] = []): void {
    this.#messages.push(...messages);
    for (const id of answeredIds) this.#seenIds.add(id);
  }

  /** Auto mode left native calls for text markers: the trace shows it before the round in flight. */
  switched(): void {
    this.#switched = true;
  }

  /** A round that ends without a turn to report (refused, failed, cancelled). */
  record(round: RoundRecord): void {
    this.#rounds = [...this.#rounds, this.#switched ? { ...round, switched: true } : round];
    this.#switched = false;
  }

  /** The round's record, with what its trace entry shows of the turn, then the caller's progress report. */
  async report(
    round: RoundRecord & { readonly action: TurnAction },
    envelope: Envelope,
    calls: TraceTurn["tool_calls"] = [],
    failures?: readonly string[],
  ): Promise<void> {
    const turn = {
      id: envelope.id,
      model: envelope.model,
      calls,
      ...(failures === undefined ? {} : { failures }),
    };
    this.record({ ...round, turn });
    await this.#options.onRound?.(this.#progress());
  }

  /** The next request waits for its share of the provider: the progress so far, saying so. */
  waiting(wait: ProviderWait): void {
    void this.#options.onRound?.({ ...this.#progress(), waiting: wait });
  }

  #progress(): RoundProgress {
    const done = this.tally();
    return {
      round: done.rounds,
      maxRounds: this.#options.limits.maxRounds,
      toolCalls: done.toolCalls,
      totalTokens: done.usage.total_tokens,
      usage: { ...done.usage },
      spend: done.spend,
    };
  }

  /** The one repair round is asked for. */
  requestRepair(pending: PendingRepair): void {
    this.#repair = pending;
    this.#repairRecord = pending.record;
  }

  /** No repair round fits the budgets: the record says which budget had no room. */
  repairNotSent(record: RepairRound): void {
    this.#repairRecord = record;
  }

  /** Records how the repair round in flight (if any) ended. */
  settleRepair(outcome: RepairRound["outcome"]): void {
    if (this.#repairRecord !== undefined && this.#repair !== null) {
      this.#repairRecord = { ...this.#repairRecord, outcome };
    }
  }

  /** Ended from outside the model's answer (cancelled, timed out, provider failure). */
  interrupted(ending: LoopEnding<T>): ToolLoopResult<T> {
    this.settleRepair("interrupted");
    return this.finish(ending);
  }

  finish(ending: LoopEnding<T>): ToolLoopResult<T> {
    const { transports, includeTrace, now } = this.#options;
    const done = this.tally();
    return {
      termination_reason: ending.reason,
      answer: ending.answer ?? null,
      usage: done.usage,
      spend: done.spend,
      rounds: done.rounds,
      tool_calls: done.toolCalls,
      duration_ms: Math.max(0, Math.round(now() - this.#started)),
      trace: includeTrace && !isErrorReason(ending.reason) ? traceOf(this.#rounds) : null,
      ...(ending.retryAfterSeconds === undefined ? {} : { retry_after_seconds: ending.retryAfterSeconds }),
      ...(this.#repairRecord === undefined ? {} : { repair: this.#repairRecord }),
      ...(ending.validationFailures === undefined ? {} : { validation_failures: ending.validationFailures }),
      ...(ending.providerFailure === undefined ? {} : { provider_failure: ending.providerFailure }),
      tool_call_transport: transports.current.kind,
      ...(transports.switched === null ? {} : { tool_call_switch: transports.switched }),
    };
  }
}
