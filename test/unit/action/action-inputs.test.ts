// The action's inputs as the runner passes them (INPUT_<NAME>, hyphens kept), read through the
// App's own readers: defaults, the budgets, the action's own inputs, and errors that name the
// input a workflow's author wrote rather than the environment variable behind it.

import { describe, expect, it } from "@jest/globals";
import { actionInput, readActionSettings } from "../../../src/action/action-inputs.ts";
import { DEFAULT_REVIEW_LIMITS } from "../../../src/config/review-limits.ts";
import { isLoupeError } from "../../../src/domain/errors.ts";

const base = {
  "INPUT_OPENAI-BASE-URL": "https://models.example/v1",
  "INPUT_OPENAI-API-KEY": "sk-action-inputs-test",
  "INPUT_REVIEW-MODEL": "deepseek-v4-flash",
  "INPUT_GITHUB-TOKEN": "ghs_inputs_test",
};

const errorOf = (env: Record<string, string>): string => {
  try {
    readActionSettings(env);
  } catch (error) {
    if (isLoupeError(error, "configuration_invalid")) return error.message;
    throw error;
  }
  throw new Error("no error");
};

describe("the action's inputs", () => {
  it("are read as the runner names them, upper-cased with hyphens kept", () => {
    expect(actionInput({ "INPUT_FAIL-ON": " high " }, "fail-on")).toBe("high");
    expect(actionInput({}, "fail-on")).toBe("");
  });

  it("read the prices and who may start a review, with the App's defaults and terms", () => {
    expect(readActionSettings(base)).toMatchObject({ prices: null, authorPolicy: "members" });
    const priced = readActionSettings({
      ...base,
      "INPUT_PRICE-INPUT": "2",
      "INPUT_PRICE-OUTPUT": "8",
      "INPUT_AUTO-REVIEW-AUTHORS": "writers",
    });
    expect(priced).toMatchObject({
      prices: { input: 2, cachedInput: 2, output: 8 },
      authorPolicy: "writers",
    });
    expect(errorOf({ ...base, "INPUT_PRICE-INPUT": "2" })).toMatch(/^input price-output is missing/);
    expect(errorOf({ ...base, "INPUT_AUTO-REVIEW-AUTHORS": "all" })).toMatch(
      /^input auto-review-authors must be one of everyone, members, writers/,
    );
  });

  it("give Loupe's defaults when only the provider is set", () => {
    const settings = readActionSettings(base);
    expect(settings.provider).toMatchObject({
      baseURL: "https://models.example/v1",
      model: "deepseek-v4-flash",
    });
    expect(settings.limits).toEqual(DEFAULT_REVIEW_LIMITS);
    expect(settings).toMatchObject({
      failOn: null,
      configPath: null,
      token: "ghs_inputs_test",
      botLogin: "github-actions[bot]",
      mention: "loupe",
    });
  });

  it("carry the budgets, the gate, the configuration's path and an App's login", () => {
    const settings = readActionSettings({
      ...base,
      "INPUT_MAX-ROUNDS": "4",
      "INPUT_MAX-TOKENS": "90000",
      "INPUT_TIMEOUT-MS": "60000",
      "INPUT_TOOL-CALLS": "text",
      "INPUT_FAIL-ON": "high",
      INPUT_CONFIG: "config/loupe.yml",
      "INPUT_BOT-LOGIN": "my-loupe[bot]",
      INPUT_MENTION: "@my-loupe",
      INPUT_VERIFY: "off",
    });
    expect(settings.limits).toMatchObject({
      maxRounds: 4,
      maxTokens: 90_000,
      timeoutMs: 60_000,
      verify: false,
    });
    expect(settings.provider.toolCalls).toBe("text");
    expect(settings).toMatchObject({
      failOn: "high",
      configPath: "config/loupe.yml",
      botLogin: "my-loupe[bot]",
      mention: "my-loupe",
    });
  });

  it("take the job's GITHUB_TOKEN when no github-token input is set", () => {
    const { "INPUT_GITHUB-TOKEN": _token, ...rest } = base;
    expect(readActionSettings({ ...rest, GITHUB_TOKEN: "ghs_job" }).token).toBe("ghs_job");
    expect(errorOf(rest)).toBe("input github-token is required");
  });

  it("are refused in the terms of action.yml", () => {
    // The shared readers' wording may change; what must hold is that the input is named, never the
    // environment variable behind it.
    const named = (message: string, input: string) => {
      expect(message).toContain(`input ${input}`);
      expect(message).not.toMatch(/\b(OPENAI|REVIEW)_[A-Z_]+/);
    };
    named(errorOf({ ...base, "INPUT_OPENAI-API-KEY": "" }), "openai-api-key");
    named(errorOf({ ...base, "INPUT_MAX-ROUNDS": "99" }), "max-rounds");
    named(errorOf({ ...base, "INPUT_TIMEOUT-MS": "soon" }), "timeout-ms");
    named(errorOf({ ...base, "INPUT_OPENAI-BASE-URL": "" }), "openai-base-url");
    named(errorOf({ ...base, "INPUT_TOOL-CALLS": "smoke" }), "tool-calls");
    expect(errorOf({ ...base, "INPUT_FAIL-ON": "severe" })).toMatch(/^input fail-on must be one of critical/);
    expect(errorOf({ ...base, INPUT_CONFIG: "../other/loupe.yml" })).toMatch(
      /^input config must be a relative path/,
    );
    expect(errorOf({ ...base, INPUT_MENTION: "two words" })).toMatch(/^input mention must be a GitHub login/);
  });
});
