// The provider client: openai 7 `chat.completions.create`, non-streaming, with the SDK's own
// retries off so that Loupe's bounded retry decides (Retry-After honoured, never past the review
// deadline). The raw body is read through a byte-counting fetch and parsed once, so the loop
// receives the JSON exactly as received, unknown fields included. The SDK (some 240 modules, about
// 0.3 s of CPU) is loaded by the first request rather than at start: every repository worker builds
// a provider as it starts, one per review that may run at once, and a worker that is not reviewing
// has no use for it; the first request waits for it once, a fraction of any model's answer.

import type OpenAI from "openai";
import type { ChatCompletionCreateParamsNonStreaming } from "openai/resources/chat/completions";
import type { ProviderConfig } from "../config/provider-config.ts";
import type { ErrorKind } from "../domain/error-kind.ts";
import { abortableSleep } from "./abortable-sleep.ts";
import { createBoundedFetch } from "./bounded-fetch.ts";
import { type AttemptFailure, classifyFailure } from "./classify-failure.ts";
import { isRecord, readUsage } from "./envelope.ts";
import { providerFailureKind } from "./failure-kind.ts";
import type { ChatProvider, ChatRequestBody, NonJsonAnswer, ProviderOutcome } from "./provider.ts";
import { estimateTokens, type ProviderGate, type ProviderWait } from "./provider-gate.ts";

type Attempt =
  | { kind: "response"; body: unknown }
  | ({ kind: "failure"; answer?: NonJsonAnswer; waitedSeconds?: number } & AttemptFailure);

/** Only the kind of a body that is not JSON is kept (an HTML page or not), never the body itself. */
function nonJsonAnswer(contentType: string | null, text: string): NonJsonAnswer {
  return /html/i.test(contentType ?? "") || /^\s*<(!doctype|html)/i.test(text.slice(0, 512))
    ? "html"
    : "not_json";
}

export interface OpenAiProviderOptions {
  fetch?: typeof fetch;
  /** Injected for tests of the backoff arithmetic; defaults to Math.random. */
  random?: () => number;
  /** Told of every failed attempt, retried or not (the provider's error count). */
  onFailedAttempt?: (kind: ErrorKind) => void;
  /** The fleet's share of the provider: every attempt holds a pass while in flight. */
  gate?: ProviderGate;
}

/** A Retry-After of 0 still spaces the fleet's next try (a 429 answered at once, again and again). */
const MIN_SHARED_BACK_OFF_MS = 1000;

export function createOpenAiProvider(
  config: ProviderConfig,
  options: OpenAiProviderOptions = {},
): ChatProvider {
  let client: Promise<OpenAI> | undefined;
  const openClient = () =>
    (client ??= import("openai").then(
      ({ default: OpenAI }) =>
        new OpenAI({
          apiKey: config.apiKey,
          baseURL: config.baseURL,
          maxRetries: 0,
          logLevel: "off",
          fetch: createBoundedFetch(config.maxResponseBytes, options.fetch ?? fetch),
        }),
    ));
  const random = options.random ?? Math.random;
  const host = new URL(config.baseURL).host;

  async function attempt(body: ChatRequestBody, signal: AbortSignal, deadline: number): Promise<Attempt> {
    const sdk = await openClient();
    const remaining = deadline - Date.now();
    if (signal.aborted) return { kind: "failure", reason: "cancelled", retryable: false };
    if (remaining <= 0) return { kind: "failure", reason: "review_timeout", retryable: false };
    // One controller per attempt, aborted by the review or at the deadline: it also bounds the
    // body read, which the SDK's own timeout does not cover once headers have arrived.
    const controller = new AbortController();
    const onAbort = (): void => controller.abort();
    signal.addEventListener("abort", onAbort, { once: true });
    const timer = setTimeout(onAbort, remaining);
    try {
      const response = await sdk.chat.completions
        .create(body as unknown as ChatCompletionCreateParamsNonStreaming, {
          signal: controller.signal,
          timeout: remaining,
          maxRetries: 0,
        })
        .asResponse();
      const text = await response.text();
      try {
        return { kind: "response", body: JSON.parse(text) as unknown };
      } catch {
        const answer = nonJsonAnswer(response.headers.get("content-type"), text);
        return {
          kind: "failure",
          reason: "invalid_model_response",
          retryable: false,
          status: response.status,
          answer,
        };
      }
    } catch (error) {
      const failure = classifyFailure(error, { signal, deadline });
      // Nothing came back before the deadline: say how long Loupe waited for this provider.
      const waited = failure.reason === "review_timeout" && failure.status === undefined;
      return {
        kind: "failure",
        ...failure,
        ...(waited ? { waitedSeconds: Math.round(remaining / 1000) } : {}),
      };
    } finally {
      clearTimeout(timer);
      signal.removeEventListener("abort", onAbort);
    }
  }

  return {
    async complete(body, { signal, deadline, onWait }): Promise<ProviderOutcome> {
      const gate = options.gate;
      const estimate = gate === undefined ? 0 : estimateTokens(body);
      const gated = { gate, estimate, onWait, signal, deadline };
      let last: ProviderOutcome | null = null;
      for (let retry = 0; ; retry++) {
        const sent = await throughGate(gated, () => attempt(body, signal, deadline));
        if (sent === "cancelled") return { kind: "failure", reason: "cancelled" };
        if (sent === "expired") return last ?? { kind: "failure", reason: "review_timeout", host };
        const { result, backOff } = sent;
        if (result.kind === "response") return result;
        const kind = providerFailureKind(result);
        if (kind !== null) options.onFailedAttempt?.(kind);
        const outcome = toOutcome(result, host);
        last = outcome;
        if (backOff !== null) {
          // The provider said how long: the whole fleet waits that long, and this request waits
          // its turn again within its deadline — a wait, not a failure, so no retry is used up.
          if (Date.now() + backOff >= deadline) return outcome;
          retry--;
          continue;
        }
        if (!result.retryable || retry >= config.maxRetries) return outcome;
        const wait = result.retryAfterMs ?? backoffMs(retry, random);
        // Waiting past the deadline cannot succeed: report the provider's answer now instead.
        if (Date.now() + wait >= deadline) return outcome;
        if (!(await abortableSleep(wait, signal))) return { kind: "failure", reason: "cancelled" };
      }
    },
  };
}

function toOutcome(
  failure: AttemptFailure & { answer?: NonJsonAnswer; waitedSeconds?: number },
  host: string,
): ProviderOutcome {
  const outcome: ProviderOutcome = { kind: "failure", reason: failure.reason, host };
  if (failure.answer !== undefined) outcome.answer = failure.answer;
  if (failure.waitedSeconds !== undefined) outcome.waitedSeconds = failure.waitedSeconds;
  if (failure.status !== undefined) outcome.status = failure.status;
  if (failure.network !== undefined) outcome.network = failure.network;
  if (failure.toolsRejected === true) outcome.toolsRejected = true;
  if (failure.reason === "provider_rate_limited" && failure.retryAfterMs !== undefined) {
    outcome.retryAfterSeconds = Math.ceil(failure.retryAfterMs / 1000);
  }
  return outcome;
}

/** 0.5 s · 2^n, capped at 8 s, with up to 25 % jitter (the SDK's own schedule). */
export function backoffMs(retry: number, random: () => number): number {
  return Math.min(500 * 2 ** retry, 8000) * (1 - 0.25 * random());
}

/** The tokens an answer says it used, if it says. */
function usedTokens(body: unknown): number | null {
  return readUsage(isRecord(body) ? body.usage : undefined)?.total_tokens ?? null;
}

interface Gated {
  readonly gate: ProviderGate | undefined;
  readonly estimate: number;
  readonly onWait: ((wait: ProviderWait) => void) | undefined;
  readonly signal: AbortSignal;
  readonly deadline: number;
}

/** One attempt holding a pass of the gate (if any): its result, and the fleet's back-off it set. */
async function throughGate(
  gated: Gated,
  send: () => Promise<Attempt>,
): Promise<{ result: Attempt; backOff: number | null } | "cancelled" | "expired"> {
  const { gate, estimate, onWait, signal, deadline } = gated;
  const entry = await gate?.acquire({ tokens: estimate, deadline, signal, ...(onWait ? { onWait } : {}) });
  if (entry !== undefined && entry.kind !== "granted") return entry.kind;
  const result = await send();
  const backOff = sharedBackOff(gate, result);
  // Set before the pass is given back, so no request takes its place before the fleet waits.
  if (backOff !== null) await gate?.backOff(backOff);
  // A request that failed used no tokens; an answer without usage counts as estimated.
  await entry?.pass.release(result.kind === "response" ? (usedTokens(result.body) ?? estimate) : 0);
  return { result, backOff };
}

/** A 429 that says how long to wait, with a gate to share it: the fleet's back-off in ms. */
function sharedBackOff(gate: ProviderGate | undefined, result: Attempt): number | null {
  if (gate === undefined || result.kind !== "failure") return null;
  if (result.reason !== "provider_rate_limited" || result.retryAfterMs === undefined) return null;
  return Math.max(MIN_SHARED_BACK_OFF_MS, result.retryAfterMs);
}
