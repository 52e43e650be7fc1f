import { describe, expect, it } from "@jest/globals";
import { ProviderConfigSchema } from "../../../src/config/provider-config.ts";
import { REPLY_HARD_CAPS, ReplyLimitsSchema } from "../../../src/config/reply-limits.ts";
import { DEFAULT_REVIEW_LIMITS, HARD_CAPS, ReviewLimitsSchema } from "../../../src/config/review-limits.ts";
import { settingsError, settingsErrors, settingsOf } from "../../support/settings.ts";

type Env = Record<string, string>;
const readReviewLimits = (env: Env) => settingsOf(ReviewLimitsSchema, env);
const readProviderConfig = (env: Env) => settingsOf(ProviderConfigSchema, env);

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
      verify: true,
    });
  });

  it("turns the verification pass off with REVIEW_VERIFY=off, and refuses any other word", () => {
    expect(readReviewLimits({ REVIEW_VERIFY: "off" })).toMatchObject({ verify: false });
    expect(readReviewLimits({ REVIEW_VERIFY: " on " })).toMatchObject({ verify: true });
    expect(settingsError(ReviewLimitsSchema, { REVIEW_VERIFY: "no" })).toBe(
      'REVIEW_VERIFY="no" is not one of on, off: set one, or unset REVIEW_VERIFY for on',
    );
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
  ])("refuses %s=%s with one line naming it, its value and the fix", (name, value) => {
    const message = settingsError(ReviewLimitsSchema, { [name]: value });
    expect(message).toContain(`${name}=${JSON.stringify(value)} is not an integer from 1 to `);
    expect(message).toContain(`or unset ${name} for `);
    expect(message).not.toContain("\n");
  });
});

describe("reply budgets from the environment", () => {
  it("are smaller than a review's by default", () => {
    expect(settingsOf(ReplyLimitsSchema, {})).toEqual({
      maxRounds: 4,
      maxToolCalls: 8,
      maxTokens: 100_000,
      timeoutMs: 120_000,
    });
    expect(settingsOf(ReplyLimitsSchema, { REPLY_MAX_ROUNDS: "16", REPLY_TIMEOUT_MS: "1000" })).toMatchObject(
      {
        maxRounds: 16,
        timeoutMs: 1000,
      },
    );
  });

  it.each([
    ["REPLY_MAX_ROUNDS", String(REPLY_HARD_CAPS.maxRounds + 1)],
    ["REPLY_MAX_TOOL_CALLS", "0"],
    ["REPLY_MAX_TOKENS", "lots"],
    ["REPLY_TIMEOUT_MS", String(REPLY_HARD_CAPS.timeoutMs + 1)],
  ])("refuses %s=%s with one line naming it", (name, value) => {
    const message = settingsError(ReplyLimitsSchema, { [name]: value });
    expect(message).toContain(`${name}=`);
    expect(message).not.toContain("\n");
  });
});

describe("provider configuration", () => {
  const base = {
    OPENAI_BASE_URL: "https://api.example.test/v1",
    OPENAI_API_KEY: "sk-abcdefghijklmnop",
    REVIEW_MODEL: "gpt-4.1-mini",
  };

  it("needs a key, an endpoint and a model, and defaults the rest", () => {
    expect(settingsError(ProviderConfigSchema, { ...base, OPENAI_API_KEY: "" })).toMatch(
      /^OPENAI_API_KEY is required: /,
    );
    expect(readProviderConfig(base)).toEqual({
      baseURL: "https://api.example.test/v1",
      apiKey: "sk-abcdefghijklmnop",
      model: "gpt-4.1-mini",
      maxResponseBytes: 2097152,
      maxRetries: 2,
      toolCalls: "auto",
    });
  });

  it.each([
    ["unset", {}],
    ["empty", { OPENAI_BASE_URL: "" }],
    ["blank", { OPENAI_BASE_URL: "  " }],
  ])("has no default endpoint: OPENAI_BASE_URL %s is an error naming it", (_what, env) => {
    const { OPENAI_BASE_URL: _, ...rest } = base;
    const message = settingsError(ProviderConfigSchema, { ...rest, ...env });
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
    const message = settingsError(ProviderConfigSchema, { ...base, [name]: value });
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

  it.each([
    "https://api.openai.com/v1/chat/completions",
    "https://api.openai.com/v1/chat/completions/",
    "http://127.0.0.1:8000/v1/chat/completions",
  ])("refuses the full request path %s: the client appends it, and it would 404", (url) => {
    expect(settingsError(ProviderConfigSchema, { ...base, OPENAI_BASE_URL: url })).toBe(
      "OPENAI_BASE_URL ends with the request path: drop /chat/completions",
    );
  });

  it("has no default model: a model name belongs to one provider", () => {
    const { REVIEW_MODEL: _, ...rest } = base;
    const message = settingsError(ProviderConfigSchema, rest);
    expect(message).toMatch(/^REVIEW_MODEL is required: the model's name at OPENAI_BASE_URL, e.g. /);
  });

  it("reports every problem at once, the key never shown", () => {
    const errors = settingsErrors(ProviderConfigSchema, {
      OPENAI_API_KEY: "sk-secret with-space",
      OPENAI_BASE_URL: "https://api.example.test/v1/chat/completions",
      OPENAI_MAX_RETRIES: "7",
      REVIEW_TOOL_CALLS: "json",
    });
    expect(errors.map((line) => line.split(/[= ]/)[0])).toEqual([
      "OPENAI_BASE_URL",
      "OPENAI_API_KEY",
      "REVIEW_MODEL",
      "OPENAI_MAX_RETRIES",
      "REVIEW_TOOL_CALLS",
    ]);
    expect(errors.join("\n")).not.toContain("sk-secret");
  });
});
