// What the tool loop keeps while it runs, and how that becomes its result: the history it sends,
// the counters its budgets read (rounds, tool calls, tokens, content, the slowest round), the
// budget that ended normal rounds, the repair round in flight and its record, and the trace.

import type { ReviewLimits } from "../config/review-limits.ts";
import { NO_SPEND, type Spend } from "../domain/spend.ts";
import { type BudgetState, type BudgetStop, isErrorReason } from "./budget.ts";
import type { Envelope } from "./envelope.ts";
import type { Ending, PendingRepair } from "./loop-options.ts";
import type { ChatMessage } from "./provider.ts";
import { type ProtocolAction, traceTurn } from "./trace.ts";
import type { TransportChoice } from "./transport/choose.ts";
import type { RepairRound, RoundProgress, ToolLoopResult, TraceTurn, Usage } from "./types.ts";

export interface LoopStateOptions {
  readonly messages: readonly ChatMessage[];
  readonly limits: ReviewLimits;
  readonly includeTrace: boolean;
  readonly transports: TransportChoice;
  readonly now: () => number;
  readonly onRound?: (progress: RoundProgress) => void | Promise<void>;
}

export class LoopState<T> {
  /** The conversation so far, a private deep copy (the caller's messages are never touched). */
  readonly messages: ChatMessage[];
  /** Tool call ids already answered: a repeated id is a protocol violation. */
  readonly seenIds = new Set<string>();
  readonly trace: TraceTurn[] = [];
  readonly deadline: number;
  usage: Usage = { prompt_tokens: 0, completion_tokens: 0, total_tokens: 0 };
  spend: Spend = NO_SPEND;
  rounds = 0;
  toolCalls = 0;
  toolContentBytes = 0;
  lastRoundTokens = 0;
  longestRoundMs = 0;
  /** Set once a budget is reached: the next round asks for the final answer. */
  budget: BudgetStop | null = null;
  repair: PendingRepair | null = null;
  repairRecord: RepairRound | undefined;
  /** The one reminder that a promise to call a tool is not a call has been sent. */
  reminded = false;
  private readonly started: number;
  private readonly options: LoopStateOptions;

  constructor(options: LoopStateOptions) {
    this.options = options;
    this.messages = structuredClone([...options.messages]);
    this.started = options.now();
    this.deadline = this.started + options.limits.timeoutMs;
  }

  budgetState(): BudgetState {
    return {
      roundsDone: this.rounds,
      toolCalls: this.toolCalls,
      totalTokens: this.usage.total_tokens,
      lastRoundTokens: this.lastRoundTokens,
      longestRoundMs: this.longestRoundMs,
      now: this.options.now(),
      deadline: this.deadline,
    };
  }

  /** Records how the repair round in flight (if any) ended. */
  settleRepair(outcome: RepairRound["outcome"]): void {
    if (this.repairRecord !== undefined && this.repair !== null) {
      this.repairRecord = { ...this.repairRecord, outcome };
    }
  }

  /** The round's entry in the trace, then the caller's progress report. */
  async report(
    envelope: Envelope,
    action: ProtocolAction,
    calls: TraceTurn["tool_calls"] = [],
    failures?: readonly string[],
  ): Promise<void> {
    this.trace.push(traceTurn(this.rounds, envelope, action, calls, failures));
    await this.options.onRound?.({
      round: this.rounds,
      maxRounds: this.options.limits.maxRounds,
      toolCalls: this.toolCalls,
      totalTokens: this.usage.total_tokens,
      usage: { ...this.usage },
      spend: this.spend,
    });
  }

  /** Ended from outside the model's answer (cancelled, timed out, provider failure). */
  interrupted(ending: Ending<T>): ToolLoopResult<T> {
    this.settleRepair("interrupted");
    return this.finish(ending);
  }

  finish(ending: Ending<T>): ToolLoopResult<T> {
    const { transports } = this.options;
    return {
      termination_reason: ending.reason,
      answer: ending.answer ?? null,
      usage: this.usage,
      spend: this.spend,
      rounds: this.rounds,
      tool_calls: this.toolCalls,
      duration_ms: Math.max(0, Math.round(this.options.now() - this.started)),
      trace: this.options.includeTrace && !isErrorReason(ending.reason) ? this.trace : null,
      ...(ending.retryAfterSeconds === undefined ? {} : { retry_after_seconds: ending.retryAfterSeconds }),
      ...(this.repairRecord === undefined ? {} : { repair: this.repairRecord }),
      ...(ending.validationFailures === undefined ? {} : { validation_failures: ending.validationFailures }),
      ...(ending.providerFailure === undefined ? {} : { provider_failure: ending.providerFailure }),
      tool_call_transport: transports.current.kind,
      ...(transports.switched === null ? {} : { tool_call_switch: transports.switched }),
    };
  }
}
