import { describe, expect, it } from "@jest/globals";
import { readProviderConfig } from "../../src/config/provider-config.ts";
import { REPLY_HARD_CAPS, readReplyLimits } from "../../src/config/reply-limits.ts";
import { DEFAULT_REVIEW_LIMITS, HARD_CAPS, readReviewLimits } from "../../src/config/review-limits.ts";
import { configError } from "../support/config-error.ts";

describe("review limits from the environment", () => {
  it("uses the defaults when nothing is set", () => {
    expect(readReviewLimits({})).toEqual(DEFAULT_REVIEW_LIMITS);
    expect(DEFAULT_REVIEW_LIMITS).toMatchObject({
      maxRounds: 8,
      maxToolCallsPerRound: 8,
      maxToolCalls: 32,
      timeoutMs: 300000,
      maxTokens: 500000,
      maxResponseBytes: 2097152,
      tracePreviewBytes: 4096,
      maxFetchBytes: 1073741824,
    });
  });

  it("reads valid values up to the cap", () => {
    expect(
      readReviewLimits({ REVIEW_MAX_ROUNDS: "3", REVIEW_TIMEOUT_MS: String(HARD_CAPS.timeoutMs) }),
    ).toMatchObject({ maxRounds: 3, timeoutMs: HARD_CAPS.timeoutMs });
  });

  it.each([
    ["REVIEW_MAX_ROUNDS", "0"],
    ["REVIEW_MAX_ROUNDS", "-1"],
    ["REVIEW_MAX_TOOL_CALLS", "2.5"],
    ["REVIEW_MAX_TOOL_CALLS_PER_ROUND", "eight"],
    ["REVIEW_TIMEOUT_MS", "1e6"],
    ["REVIEW_MAX_TOKENS", String(HARD_CAPS.maxTokens + 1)],
    ["REVIEW_MAX_TOOL_CONTENT_BYTES", "99999999999"],
    ["REVIEW_MAX_FETCH_BYTES", String(HARD_CAPS.maxFetchBytes + 1)],
  ])("refuses %s=%s with one line naming it", (name, value) => {
    const message = configError(() => readReviewLimits({ [name]: value }));
    expect(message).toContain(name);
    expect(message).not.toContain("\n");
  });
});

describe("reply limits from the environment", () => {
  it("are smaller than a review's by default, and keep the review's other bounds", () => {
    const review = readReviewLimits({ REVIEW_MAX_RESPONSE_BYTES: "4096" });
    expect(readReplyLimits({}, review)).toEqual({
      ...review,
      maxRounds: 4,
      maxToolCalls: 8,
      maxTokens: 100_000,
      timeoutMs: 120_000,
    });
    expect(readReplyLimits({ REPLY_MAX_ROUNDS: "16", REPLY_TIMEOUT_MS: "1000" }, review)).toMatchObject({
      maxRounds: 16,
      timeoutMs: 1000,
      maxResponseBytes: 4096,
    });
  });

  it.each([
    ["REPLY_MAX_ROUNDS", String(REPLY_HARD_CAPS.maxRounds + 1)],
    ["REPLY_MAX_TOOL_CALLS", "0"],
    ["REPLY_MAX_TOKENS", "lots"],
    ["REPLY_TIMEOUT_MS", String(REPLY_HARD_CAPS.timeoutMs + 1)],
  ])("refuses %s=%s with one line naming it", (name, value) => {
    const message = configError(() => readReplyLimits({ [name]: value }, DEFAULT_REVIEW_LIMITS));
    expect(message).toContain(name);
    expect(message).not.toContain("\n");
  });
});

describe("provider configuration", () => {
  const base = { OPENAI_BASE_URL: "https://api.example.test/v1", OPENAI_API_KEY: "sk-abcdefghijklmnop" };

  it("needs a key and an endpoint, and defaults the rest", () => {
    expect(configError(() => readProviderConfig({ OPENAI_BASE_URL: base.OPENAI_BASE_URL }))).toContain(
      "OPENAI_API_KEY",
    );
    expect(readProviderConfig(base)).toEqual({
      baseURL: "https://api.example.test/v1",
      apiKey: "sk-abcdefghijklmnop",
      model: "deepseek-v4-flash",
      maxResponseBytes: 2097152,
      maxRetries: 2,
      toolCalls: "auto",
    });
  });

  it.each([
    ["unset", {}],
    ["empty", { OPENAI_BASE_URL: "" }],
    ["blank", { OPENAI_BASE_URL: "  " }],
  ])("has no default endpoint: OPENAI_BASE_URL %s is an error naming it", (_, env) => {
    const message = configError(() => readProviderConfig({ OPENAI_API_KEY: base.OPENAI_API_KEY, ...env }));
    expect(message).toMatch(/^OPENAI_BASE_URL is required/);
    expect(message).not.toContain("\n");
  });

  it.each([
    ["OPENAI_BASE_URL", "not a url"],
    ["OPENAI_BASE_URL", "ftp://host/v1"],
    ["OPENAI_BASE_URL", "https://user:pw@host/v1"],
    ["REVIEW_MODEL", "has spaces in it"],
    ["OPENAI_MAX_RETRIES", "100"],
    ["REVIEW_TOOL_CALLS", "json"],
    ["REVIEW_TOOL_CALLS", "Native"],
  ])("refuses %s=%s", (name, value) => {
    const message = configError(() => readProviderConfig({ ...base, [name]: value }));
    expect(message).toContain(name);
    expect(message).not.toContain("pw@");
  });

  it.each(["native", "text", "auto", " text "])("accepts REVIEW_TOOL_CALLS=%p", (value) => {
    const config = readProviderConfig({ ...base, REVIEW_TOOL_CALLS: value });
    expect(config.toolCalls).toBe(value.trim());
  });

  it("accepts zero retries", () => {
    expect(readProviderConfig({ ...base, OPENAI_MAX_RETRIES: "0" }).maxRetries).toBe(0);
  });
});
