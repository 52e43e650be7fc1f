// One review of the eval, as `loupe eval run` stores it: what `loupe review --format json` printed,
// cut to what scoring and the report read (the trace is counted, not kept).

import type { Finding } from "../domain/finding.ts";
import { type Cost, dollarsOf, NO_SPEND, type Spend } from "../domain/spend.ts";

export interface RunRecord {
  readonly key: string;
  readonly url: string;
  readonly variant: string;
  readonly run: number;
  /** The loop's termination reason, or `skipped:<reason>` when the App would skip the change. */
  readonly stop_reason: string;
  readonly findings: readonly Finding[];
  readonly spend: Spend;
  readonly tokens: number;
  readonly dollars: number | null;
  readonly rounds: number;
  readonly tool_calls: number;
  readonly seconds: number;
  readonly verification: unknown;
}

export interface ReviewJson {
  readonly termination_reason?: string;
  readonly skipped?: { readonly reason: string };
  readonly review?: { readonly findings?: readonly Finding[] } | null;
  readonly spend?: Spend;
  readonly cost?: Cost;
  readonly rounds?: number;
  readonly trace?: readonly { readonly tool_calls?: readonly unknown[] }[] | null;
  readonly verification?: unknown;
}

export function runRecord(
  where: { key: string; url: string; variant: string; run: number; seconds: number },
  json: ReviewJson,
): RunRecord {
  const spend = json.spend ?? NO_SPEND;
  return {
    ...where,
    stop_reason:
      json.skipped === undefined ? (json.termination_reason ?? "unknown") : `skipped:${json.skipped.reason}`,
    findings: json.review?.findings ?? [],
    spend,
    tokens: spend.input_tokens + spend.cached_input_tokens + spend.output_tokens,
    dollars: json.cost === undefined ? 0 : dollarsOf(json.cost),
    rounds: json.rounds ?? 0,
    tool_calls: (json.trace ?? []).reduce((n, round) => n + (round.tool_calls?.length ?? 0), 0),
    verification: json.verification ?? null,
  };
}
