import { describe, expect, it } from "@jest/globals";
import {
  secondaryRateLimitWaitMs,
  withSecondaryRetry,
} from "../../../../src/forges/github/retry-secondary.ts";

function httpError(status: number, message: string, headers: Record<string, string> = {}): Error {
  return Object.assign(new Error(message), { status, response: { headers } });
}

function harness(failures: Error[], options: { deadline?: number; maxAttempts?: number } = {}) {
  let clock = 1_000_000;
  const sleeps: number[] = [];
  let attempts = 0;
  const operation = async () => {
    attempts++;
    const failure = failures.shift();
    if (failure) throw failure;
    return "done";
  };
  const run = () =>
    withSecondaryRetry(operation, {
      now: () => clock,
      sleep: async (ms) => {
        sleeps.push(ms);
        clock += ms;
      },
      deadline: options.deadline ?? clock + 10 * 60_000,
      ...(options.maxAttempts === undefined ? {} : { maxAttempts: options.maxAttempts }),
    });
  return { run, sleeps, attempts: () => attempts };
}

describe("secondaryRateLimitWaitMs", () => {
  it("reads Retry-After, defaults to 60 s, honours x-ratelimit-reset, and ignores other errors", () => {
    expect(secondaryRateLimitWaitMs(httpError(403, "x", { "retry-after": "7" }))).toBe(7000);
    expect(secondaryRateLimitWaitMs(httpError(403, "You have exceeded a secondary rate limit"))).toBe(60_000);
    expect(secondaryRateLimitWaitMs(httpError(429, "Too Many Requests"))).toBe(60_000);
    const reset = httpError(403, "secondary rate limit", {
      "x-ratelimit-remaining": "0",
      "x-ratelimit-reset": "2000",
    });
    expect(secondaryRateLimitWaitMs(reset, () => 1_990_000)).toBe(10_000);
    expect(secondaryRateLimitWaitMs(httpError(403, "Resource not accessible by integration"))).toBeNull();
    expect(secondaryRateLimitWaitMs(httpError(500, "x", { "retry-after": "1" }))).toBeNull();
    expect(secondaryRateLimitWaitMs(new Error("socket hang up"))).toBeNull();
  });
});

describe("withSecondaryRetry", () => {
  it("waits Retry-After, then succeeds", async () => {
    const h = harness([httpError(403, "secondary rate limit", { "retry-after": "3" })]);
    await expect(h.run()).resolves.toBe("done");
    expect(h.sleeps).toEqual([3000]);
    expect(h.attempts()).toBe(2);
  });

  it("lets a permission 403 through at once", async () => {
    const h = harness([httpError(403, "Resource not accessible by integration")]);
    await expect(h.run()).rejects.toMatchObject({ status: 403 });
    expect(h.sleeps).toEqual([]);
  });

  it("does not wait past the deadline", async () => {
    const h = harness([httpError(429, "slow down", { "retry-after": "120" })], {
      deadline: 1_000_000 + 60_000,
    });
    await expect(h.run()).rejects.toMatchObject({ status: 429 });
    expect(h.sleeps).toEqual([]);
  });

  it("gives up after maxAttempts", async () => {
    const limited = () => httpError(429, "slow down", { "retry-after": "1" });
    const h = harness([limited(), limited(), limited()], { maxAttempts: 3 });
    await expect(h.run()).rejects.toMatchObject({ status: 429 });
    expect(h.sleeps).toEqual([1000, 1000]);
    expect(h.attempts()).toBe(3);
  });
});
