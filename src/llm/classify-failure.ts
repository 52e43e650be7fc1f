// Turns one failed provider attempt into a classified reason, from the HTTP status and the SDK's
// error class only (never from message text, which may carry the provider's body).

import OpenAI from "openai";
import { isResponseTooLarge } from "./bounded-fetch.ts";
import type { ProviderFailureReason } from "./provider.ts";

export interface AttemptFailure {
  readonly reason: ProviderFailureReason;
  readonly retryable: boolean;
  readonly status?: number;
  /** Milliseconds the provider asked to wait (Retry-After / retry-after-ms), if it said. */
  readonly retryAfterMs?: number;
}

export function classifyFailure(
  error: unknown,
  context: { signal: AbortSignal; deadline: number },
): AttemptFailure {
  if (context.signal.aborted) return { reason: "cancelled", retryable: false };
  if (isResponseTooLarge(error)) return { reason: "upstream_response_too_large", retryable: false };
  if (
    Date.now() >= context.deadline ||
    error instanceof OpenAI.APIConnectionTimeoutError ||
    error instanceof OpenAI.APIUserAbortError
  ) {
    // Our per-attempt timeout and abort timer are both set to the review deadline.
    return { reason: "review_timeout", retryable: false };
  }
  if (error instanceof OpenAI.APIError && typeof error.status === "number") {
    return classifyStatus(error.status, error.headers);
  }
  // Connection refused or reset, or a body cut off mid-stream: transient by nature.
  return { reason: "provider_unavailable", retryable: true };
}

function classifyStatus(status: number, headers: Headers | undefined): AttemptFailure {
  const retryAfterMs = readRetryAfterMs(headers);
  const hint = retryAfterMs === undefined ? {} : { retryAfterMs };
  if (status === 401 || status === 403)
    return { reason: "provider_authentication_failed", retryable: false, status };
  if (status === 429) return { reason: "provider_rate_limited", retryable: true, status, ...hint };
  if (status === 408 || status === 409 || status >= 500) {
    return { reason: "provider_unavailable", retryable: true, status, ...hint };
  }
  // Any other 4xx: the provider refused this request; repeating it will not help.
  return { reason: "provider_unavailable", retryable: false, status };
}

/** `retry-after-ms` (non-standard, preferred) or `Retry-After` as seconds or an HTTP date. */
export function readRetryAfterMs(headers: Headers | undefined, now: number = Date.now()): number | undefined {
  const ms = headers?.get("retry-after-ms");
  if (ms !== null && ms !== undefined && /^\s*\d+(\.\d+)?\s*$/.test(ms)) return Number(ms);
  const value = headers?.get("retry-after");
  if (value === null || value === undefined) return undefined;
  if (/^\s*\d+(\.\d+)?\s*$/.test(value)) return Number(value) * 1000;
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}
