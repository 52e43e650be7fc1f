// The provider client: openai 7 `chat.completions.create`, non-streaming, with the SDK's own
// retries off so that Loupe's bounded retry decides (Retry-After honoured, never past the review
// deadline). The raw body is read through a byte-counting fetch and parsed once, so the loop
// receives the JSON exactly as received, unknown fields included.

import OpenAI from "openai";
import type { ChatCompletionCreateParamsNonStreaming } from "openai/resources/chat/completions";
import type { ProviderConfig } from "../config/provider-config.ts";
import type { ErrorKind } from "../domain/error-kind.ts";
import { createBoundedFetch } from "./bounded-fetch.ts";
import { type AttemptFailure, classifyFailure } from "./classify-failure.ts";
import { providerFailureKind } from "./failure-kind.ts";
import type { ChatProvider, ChatRequestBody, NonJsonAnswer, ProviderOutcome } from "./provider.ts";

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
}

export function createOpenAiProvider(
  config: ProviderConfig,
  options: OpenAiProviderOptions = {},
): ChatProvider {
  const client = new OpenAI({
    apiKey: config.apiKey,
    baseURL: config.baseURL,
    maxRetries: 0,
    logLevel: "off",
    fetch: createBoundedFetch(config.maxResponseBytes, options.fetch ?? fetch),
  });
  const random = options.random ?? Math.random;
  const host = new URL(config.baseURL).host;

  async function attempt(body: ChatRequestBody, signal: AbortSignal, deadline: number): Promise<Attempt> {
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
      const response = await client.chat.completions
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
    async complete(body, { signal, deadline }): Promise<ProviderOutcome> {
      for (let retry = 0; ; retry++) {
        const result = await attempt(body, signal, deadline);
        if (result.kind === "response") return result;
        const kind = providerFailureKind(result);
        if (kind !== null) options.onFailedAttempt?.(kind);
        const outcome = toOutcome(result, host);
        if (!result.retryable || retry >= config.maxRetries) return outcome;
        const wait = result.retryAfterMs ?? backoffMs(retry, random);
        // Waiting past the deadline cannot succeed: report the provider's answer now instead.
        if (Date.now() + wait >= deadline) return outcome;
        if (!(await sleep(wait, signal))) return { kind: "failure", reason: "cancelled" };
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

function sleep(ms: number, signal: AbortSignal): Promise<boolean> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve(false);
    const timer = setTimeout(() => {
      signal.removeEventListener("abort", onAbort);
      resolve(true);
    }, ms);
    const onAbort = (): void => {
      clearTimeout(timer);
      resolve(false);
    };
    signal.addEventListener("abort", onAbort, { once: true });
  });
}
