// Why a review ended, and why a pull request was not reviewed at all. Each value maps to one
// static sentence: these sentences are the only explanation Loupe publishes, so no provider
// error body, path or secret can ever leak through them. The forge a sentence names is named in
// its own words (forge-words.ts). `github_unavailable` keeps its name: it is a published code.

import type { ForgeWords } from "./forge-words.ts";

export const TERMINATION_REASONS = [
  "final_review",
  "max_rounds",
  "max_tool_calls",
  "review_timeout",
  "invalid_tool_call",
  "invalid_model_response",
  "upstream_response_too_large",
  "unsupported_finish_reason",
  "token_budget",
  "provider_authentication_failed",
  "provider_rate_limited",
  "provider_unavailable",
  "cancelled",
  "provider_request_rejected",
  "worker_out_of_memory",
  "worker_timeout",
  "github_unavailable",
] as const;

export type TerminationReason = (typeof TERMINATION_REASONS)[number];

/** The sentences that name no forge: every reason but `github_unavailable`. */
export const TERMINATION_SENTENCES: Readonly<
  Record<Exclude<TerminationReason, "github_unavailable">, string>
> = {
  final_review: "The model returned a final review that passed validation.",
  max_rounds: "The model did not finish within the allowed number of rounds.",
  max_tool_calls: "The model asked for more tool calls than a round or the review allows.",
  review_timeout: "The review did not finish within its time limit.",
  invalid_tool_call: "The model sent a tool call that failed validation, so no call of that round ran.",
  invalid_model_response: "The model's response or final review failed validation.",
  upstream_response_too_large: "The provider's response exceeded the size limit.",
  unsupported_finish_reason: "The provider stopped for a reason Loupe cannot continue from.",
  token_budget: "The review used up its token budget.",
  provider_authentication_failed: "The model provider refused Loupe's credentials.",
  provider_rate_limited: "The model provider rate-limited Loupe.",
  provider_unavailable: "The model provider could not be reached or kept failing.",
  cancelled: "The review was cancelled before it finished.",
  provider_request_rejected:
    "The model provider rejected the request (HTTP 400, 404 or 422): the endpoint or the model is wrong, or the request is one it does not accept.",
  worker_out_of_memory:
    "Loupe's work on this repository needed more memory than its limit allows, so the review was stopped and nothing was published.",
  worker_timeout:
    "Loupe's work on this repository did not finish before its deadline, so the review was stopped and nothing was published.",
};

/** The one sentence a reason is published as, naming the forge in `words`. */
export function terminationSentence(reason: TerminationReason, words: Pick<ForgeWords, "forge">): string {
  return reason === "github_unavailable"
    ? `${words.forge} could not be reached or kept failing, so the review could not run.`
    : TERMINATION_SENTENCES[reason];
}

/**
 * The reasons set from outside the loop: the thread that did the review's repository work
 * (src/isolation) was stopped. They end a review wherever it was — fetching, in the loop or
 * planning — and are also the codes of the error a port throws when no loop result can carry them.
 */
export const WORKER_STOP_REASONS = ["worker_out_of_memory", "worker_timeout"] as const;

export type WorkerStopReason = (typeof WORKER_STOP_REASONS)[number];

export function isWorkerStopReason(value: unknown): value is WorkerStopReason {
  return typeof value === "string" && (WORKER_STOP_REASONS as readonly string[]).includes(value);
}

/**
 * Why a loop ended that the next loop of the same review would meet too (the same worker, the same
 * credentials, the same endpoint and model, the same provider's limit): after one of these, a
 * review with several loops (passes, finders) runs no more. One set for every such sequence.
 */
export const STOPS_LATER_LOOPS: ReadonlySet<TerminationReason> = new Set<TerminationReason>([
  "cancelled",
  ...WORKER_STOP_REASONS,
  "provider_authentication_failed",
  "provider_request_rejected",
  "provider_rate_limited",
]);
