import { describe, expect, it } from "@jest/globals";
import { ACTION_SETTING_NAMES } from "../../../src/action/action-inputs.ts";
import { NO_SPEND } from "../../../src/domain/spend.ts";
import { GITHUB_WORDS } from "../../../src/forges/github/words.ts";
import type { LoopResult } from "../../../src/llm/types.ts";
import { renderCheckRunOutput } from "../../../src/report/check-run-output.ts";
import { renderCliMarkdown as renderResultMarkdown } from "../../../src/review/render-cli.ts";

const usage = { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 };
const base: LoopResult = {
  termination_reason: "final_review",
  review: null,
  usage,
  spend: NO_SPEND,
  rounds: 2,
  tool_calls: 0,
  duration_ms: 100,
  trace: [],
};
const input = {
  words: GITHUB_WORDS,
  conclusion: "neutral",
  findingsBySeverity: { critical: 0, high: 0, medium: 0, low: 0, info: 0 },
  filesReviewed: 1,
  filesSkipped: 0,
  headSha: "0".repeat(40),
};
const summaryOf = (over: Partial<LoopResult>) =>
  renderCheckRunOutput({ ...input, result: { ...base, ...over } }).summary;

const MISSING = "findings[2].path: no such file in the head commit";
const PAST_END = "findings[0].line: 812 is past the end of src/a.ts (120 lines)";

describe("the check run says why a review failed", () => {
  it("names each failed check of a final review, after a failed repair", () => {
    const summary = summaryOf({
      termination_reason: "invalid_model_response",
      repair: { failed_round: 1, failures: [MISSING], outcome: "failed" },
      validation_failures: [PAST_END],
      trace: null,
    });
    expect(summary).toContain("**Repair round:** The final review of round 1 failed Loupe's checks below");
    expect(summary).toContain("the corrected review failed again");
    expect(summary).toContain(`• \`${MISSING}\``);
    expect(summary).toContain(
      `**Checks the final review failed** (so none of its findings was published):\n\n• \`${PAST_END}\``,
    );
  });

  it("a repaired review shows that the repair round happened and why", () => {
    const summary = summaryOf({ repair: { failed_round: 3, failures: [MISSING], outcome: "repaired" } });
    expect(summary).toContain(
      "round 3 failed Loupe's checks below, so Loupe sent one repair request; the corrected review passed.",
    );
    expect(summary).toContain(`• \`${MISSING}\``);
    expect(summary).not.toContain("Checks the final review failed");
  });

  it("a repair that was not sent says which budget, and lists the checks once", () => {
    const summary = summaryOf({
      termination_reason: "max_rounds",
      repair: { failed_round: 8, failures: [MISSING], outcome: "not_sent", budget: "max_rounds" },
      validation_failures: [MISSING],
    });
    expect(summary).toContain("no repair request was sent because the max_rounds budget had no room left");
    expect(summary.split(MISSING)).toHaveLength(2);
  });

  it("a key the model invented stays inside a code span, whatever it contains", () => {
    const hostile = 'findings[0]["@everyone <img src=x> `x` [a](http://e.vil)"]: is not a field';
    const summary = summaryOf({
      termination_reason: "invalid_model_response",
      validation_failures: [hostile],
      trace: null,
    });
    const line = summary.split("\n").find((l) => l.includes("@everyone"));
    // A code span opened by a run of backticks longer than any inside it.
    expect(line).toMatch(/^• (`{2,})[^`].*[^`]\1$/);
  });

  it.each([
    [
      { status: 404 },
      "provider_request_rejected",
      ["HTTP 404", "`OPENAI_BASE_URL`", "`REVIEW_MODEL`", "`api.example.test`"],
    ],
    [{ status: 422 }, "provider_request_rejected", ["HTTP 422", "`REVIEW_MODEL`"]],
    [{ status: 401 }, "provider_authentication_failed", ["HTTP 401", "`OPENAI_API_KEY`"]],
    [{ status: 503 }, "provider_unavailable", ["HTTP 503", "`OPENAI_MAX_RETRIES`"]],
    [
      { network: "connection_refused" },
      "provider_unavailable",
      ["connection to `api.example.test` was refused"],
    ],
    [{ network: "dns" }, "provider_unavailable", ["`api.example.test` could not be resolved (DNS)"]],
  ] as const)("provider failure %j says what to check", (detail, reason, texts) => {
    const over: Partial<LoopResult> = {
      termination_reason: reason,
      provider_failure: { host: "api.example.test", ...detail },
      trace: null,
    };
    const summary = summaryOf(over);
    const cli = renderResultMarkdown({ ...base, ...over }, GITHUB_WORDS);
    for (const text of texts) {
      expect(summary).toContain(text);
      expect(cli).toContain(text);
    }
    expect(summary).toContain("**What to check:**");
  });

  it.each([
    [{ status: 404 }, "provider_request_rejected", ["`openai-base-url`", "`review-model`"]],
    [{ status: 401 }, "provider_authentication_failed", ["`openai-api-key`", "`review-model`"]],
    [{ status: 503 }, "provider_unavailable", ["after Loupe's retries: check the provider's status"]],
    [{ network: "connection_refused" }, "provider_unavailable", ["`openai-base-url` names the right host"]],
  ] as const)(
    "in the Action, provider failure %j names its inputs, never the App's variables",
    (detail, reason, texts) => {
      const result: LoopResult = {
        ...base,
        termination_reason: reason,
        provider_failure: { host: "api.example.test", ...detail },
        tool_call_transport: "text",
        trace: null,
      };
      const output = renderCheckRunOutput({
        ...input,
        result,
        cost: { kind: "unpriced" },
        names: ACTION_SETTING_NAMES,
      });
      for (const text of texts) expect(output.summary).toContain(text);
      expect(output.summary).toContain("Cost: unknown (no prices set: price-input, price-output)");
      expect(output.summary).toContain("written as text markers (tool-calls=text).");
      expect(output.summary).not.toMatch(/\b(?:OPENAI|REVIEW)_[A-Z_]+/);
    },
  );

  it("the CLI lists the failed checks too", () => {
    const cli = renderResultMarkdown(
      {
        ...base,
        termination_reason: "invalid_model_response",
        repair: { failed_round: 1, failures: [MISSING], outcome: "failed" },
        validation_failures: [PAST_END],
        trace: null,
      },
      GITHUB_WORDS,
    );
    expect(cli).toContain(`Repair round: The final review of round 1`);
    expect(cli).toContain(`• \`${MISSING}\``);
    expect(cli).toContain(`Checks the final review failed:\n\n• \`${PAST_END}\``);
  });
});

describe("the CLI's Markdown", () => {
  it("says how the review ended before what the verification pass did", () => {
    const markdown = renderResultMarkdown(
      {
        ...base,
        review: { summary: "s", findings: [], notes: [] },
        verification: { kept: 0, unproven: 0, refuted: [], disputed: [], unverified: [], unquoted: 0 },
      },
      GITHUB_WORDS,
    );
    expect(markdown.indexOf("## Outcome")).toBeGreaterThan(-1);
    expect(markdown.indexOf("## Verification")).toBeGreaterThan(markdown.indexOf("## Outcome"));
  });
});
