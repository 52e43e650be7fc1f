// Secondary rate limits on writes: GitHub answers 403 or 429 and asks the client to wait. Probot's
// throttling plugin only logs them (it does not retry), so Loupe waits `Retry-After` (or 60 s, as
// GitHub's docs ask) and tries again — but only while the wait still fits the review's deadline.

import { httpStatus, responseHeader } from "./octokit.ts";

export interface SecondaryRetryOptions {
  readonly sleep: (ms: number, signal?: AbortSignal) => Promise<void>;
  readonly now: () => number;
  /** Epoch ms after which Loupe stops waiting and lets the error through. */
  readonly deadline: number;
  readonly maxAttempts?: number;
  readonly signal?: AbortSignal;
}

const DEFAULT_WAIT_MS = 60_000;

/** The wait GitHub asks for, or null when the error is not a secondary rate limit. */
export function secondaryRateLimitWaitMs(error: unknown, now: () => number = Date.now): number | null {
  const status = httpStatus(error);
  if (status !== 403 && status !== 429) return null;
  const retryAfter = responseHeader(error, "retry-after");
  const message = error instanceof Error ? error.message : "";
  const secondary = status === 429 || retryAfter !== undefined || /secondary rate limit/i.test(message);
  if (!secondary) return null;
  if (responseHeader(error, "x-ratelimit-remaining") === "0") {
    const reset = Number(responseHeader(error, "x-ratelimit-reset"));
    if (Number.isFinite(reset) && reset > 0) return Math.max(0, reset * 1000 - now());
  }
  const seconds = retryAfter === undefined ? Number.NaN : Number(retryAfter);
  return Number.isFinite(seconds) && seconds >= 0 ? seconds * 1000 : DEFAULT_WAIT_MS;
}

export async function withSecondaryRetry<T>(
  operation: () => Promise<T>,
  options: SecondaryRetryOptions,
): Promise<T> {
  const maxAttempts = options.maxAttempts ?? 3;
  for (let attempt = 1; ; attempt++) {
    try {
      return await operation();
    } catch (error) {
      const wait = secondaryRateLimitWaitMs(error, options.now);
      if (wait === null || attempt >= maxAttempts || options.now() + wait > options.deadline) throw error;
      await options.sleep(wait, options.signal);
    }
  }
}
