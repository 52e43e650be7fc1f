// Turns one failed provider attempt into a classified reason, from the HTTP status and the SDK's
// error class only (never from message text, which may carry the provider's body).

import { APIConnectionTimeoutError, APIError, APIUserAbortError } from "openai/error";
import { isResponseTooLarge } from "./bounded-fetch.ts";
import type { NetworkFailure, ProviderFailureReason } from "./provider.ts";

export interface AttemptFailure {
  readonly reason: ProviderFailureReason;
  readonly retryable: boolean;
  readonly status?: number;
  /** What went wrong below HTTP, from the system error code (never a message). */
  readonly network?: NetworkFailure;
  /** Milliseconds the provider asked to wait (Retry-After / retry-after-ms), if it said. */
  readonly retryAfterMs?: number;
  /** 400/422 naming tools or tool_choice: only this boolean is kept, never the text. */
  readonly toolsRejected?: boolean;
}

// What servers without a tool-call template say: llama.cpp "tools param requires --jinja flag",
// vLLM "\"auto\" tool choice requires --enable-auto-tool-choice", Ollama "does not support tools".
const NAMES_TOOLS = /\btools?\b|tool_choice|function[ _]?call/i;

export function classifyFailure(
  error: unknown,
  context: { signal: AbortSignal; deadline: number },
): AttemptFailure {
  if (context.signal.aborted) return { reason: "cancelled", retryable: false };
  if (isResponseTooLarge(error)) return { reason: "upstream_response_too_large", retryable: false };
  if (
    Date.now() >= context.deadline ||
    error instanceof APIConnectionTimeoutError ||
    error instanceof APIUserAbortError
  ) {
    // Our per-attempt timeout and abort timer are both set to the review deadline.
    return { reason: "review_timeout", retryable: false };
  }
  if (error instanceof APIError && typeof error.status === "number") {
    const failure = classifyStatus(error.status, error.headers);
    if (error.status !== 400 && error.status !== 422) return failure;
    // Read, never kept: the message carries the provider's body (bounded by the response limit).
    return { ...failure, toolsRejected: NAMES_TOOLS.test(error.message.slice(0, 4096)) };
  }
  // Connection refused or reset, DNS, or a body cut off mid-stream: transient by nature.
  const network = networkFailure(error);
  return { reason: "provider_unavailable", retryable: true, ...(network === undefined ? {} : { network }) };
}

const NETWORK_CODES: readonly [RegExp, NetworkFailure][] = [
  [/^ECONNREFUSED$/, "connection_refused"],
  [/^(ENOTFOUND|EAI_AGAIN|EAI_FAIL|EAI_NONAME|EAI_NODATA)$/, "dns"],
  [/^(ECONNRESET|EPIPE|UND_ERR_SOCKET|UND_ERR_CLOSED)$/, "connection_reset"],
  [/^(EHOSTUNREACH|ENETUNREACH|EHOSTDOWN|ENETDOWN)$/, "unreachable"],
  [/^(CERT_|ERR_TLS_|ERR_SSL_|UNABLE_TO_|DEPTH_ZERO_|SELF_SIGNED_)/, "tls"],
];

/** The SDK wraps fetch's TypeError, which wraps the system error: follow `cause` a few steps. */
export function networkFailure(error: unknown): NetworkFailure | undefined {
  let current: unknown = error;
  for (let depth = 0; depth < 5 && typeof current === "object" && current !== null; depth++) {
    const record = current as { code?: unknown; errors?: unknown; cause?: unknown };
    const codes = [record.code, ...(Array.isArray(record.errors) ? record.errors.map((e) => e?.code) : [])];
    for (const code of codes) {
      if (typeof code !== "string") continue;
      const found = NETWORK_CODES.find(([pattern]) => pattern.test(code));
      if (found !== undefined) return found[1];
    }
    current = record.cause;
  }
  return undefined;
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
  // The endpoint or the model is wrong, or the request is not one this provider accepts:
  // repeating it will not help, and the operator has something to fix.
  if (status === 400 || status === 404 || status === 422)
    return { reason: "provider_request_rejected", retryable: false, status };
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
