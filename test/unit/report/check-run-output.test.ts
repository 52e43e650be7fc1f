import { describe, expect, it } from "@jest/globals";
import { TERMINATION_SENTENCES } from "../../../src/domain/outcome.ts";
import { NO_SPEND } from "../../../src/domain/spend.ts";
import { renderProgressOutput } from "../../../src/forges/github/check-runs/progress-output.ts";
import { GITHUB_WORDS } from "../../../src/forges/github/words.ts";
import type { LoopResult, TraceTurn } from "../../../src/llm/types.ts";
import {
  MAX_CHECK_RUN_FIELD,
  renderCheckRunOutput,
  renderSkipOutput,
} from "../../../src/report/check-run-output.ts";

const SHA = "0123456789abcdef0123456789abcdef01234567";
const usage = { prompt_tokens: 1200, completion_tokens: 300, total_tokens: 1500 };

function turn(round: number, args: unknown = { path: "src/a.ts" }): TraceTurn {
  return {
    round,
    provider_request_id: `req_${round}`,
    provider_model: "m",
    finish_reason: "tool_calls",
    protocol_action: "execute_tools",
    usage,
    tool_calls: [
      {
        id: `c${round}`,
        name: "read_repository_file",
        arguments: args,
        ok: true,
        result_preview: "1: x",
        result_bytes: 640,
        truncated: false,
        duration_ms: 3,
      },
    ],
  };
}

function result(over: Partial<LoopResult> = {}): LoopResult {
  return {
    termination_reason: "final_review",
    review: null,
    usage,
    spend: NO_SPEND,
    rounds: 2,
    tool_calls: 1,
    duration_ms: 4200,
    trace: [turn(1)],
    ...over,
  };
}

const counts = { critical: 0, high: 1, medium: 0, low: 2, info: 0 };
const input = {
  words: GITHUB_WORDS,
  conclusion: "success",
  findingsBySeverity: counts,
  filesReviewed: 7,
  filesSkipped: 2,
  headSha: SHA,
};

describe("renderCheckRunOutput", () => {
  it.each<[string, Partial<LoopResult>, Record<string, number>, string]>([
    ["findings", {}, counts, "Loupe: 3 findings (1 high)"],
    ["one finding", {}, { ...counts, high: 0, low: 1 }, "Loupe: 1 finding (1 low)"],
    ["no findings", {}, { critical: 0, high: 0, medium: 0, low: 0, info: 0 }, "Loupe: no findings"],
    [
      "an incomplete review",
      { termination_reason: "max_rounds" },
      counts,
      "Loupe: review incomplete (max_rounds)",
    ],
  ])("titles %s", (_name, over, findings, title) => {
    expect(
      renderCheckRunOutput({ ...input, findingsBySeverity: findings as typeof counts, result: result(over) })
        .title,
    ).toBe(title);
  });

  it("states the termination reason, its sentence and every figure", () => {
    const { summary } = renderCheckRunOutput({
      ...input,
      result: result({ termination_reason: "provider_rate_limited", retry_after_seconds: 30 }),
    });
    expect(summary).toContain(`\`provider_rate_limited\` — ${TERMINATION_SENTENCES.provider_rate_limited}`);
    expect(summary).toContain("wait 30 s");
    expect(summary).toContain("| high | 1 |");
    expect(summary).toContain("| **total** | **3** |");
    expect(summary).toContain("| 2 | 1 | 1200 | 300 | 1500 | 4.2 s | 7 | 2 |");
    expect(summary).toContain(SHA);
  });

  it("renders the trace as a table with escaped argument previews", () => {
    const { text } = renderCheckRunOutput({
      ...input,
      result: result({ trace: [turn(1, { query: "a|b\nc @x ghp_abcdefghijklmnopqrstuvwxyz" })] }),
    });
    expect(text).toContain(
      "| 1 | `execute_tools` | `tool_calls` | `read_repository_file` ok 640 B 3 ms | 1500 |",
    );
    const argRow = text.split("\n").find((l) => l.includes("query"))!;
    expect(argRow).toContain("a\\|b\\nc @x");
    expect(argRow).not.toContain("ghp_abcdefghijklmnopqrstuvwxyz");
    // Every unescaped pipe in the row is a cell border: 5 of them for 4 cells.
    expect(argRow.replace(/\\\|/g, "").split("|").length - 1).toBe(5);
  });

  it("says when there is no trace", () => {
    expect(renderCheckRunOutput({ ...input, result: result({ trace: null }) }).text).toMatch(/^No trace/);
  });

  it("keeps every field within 65,535 characters for a huge trace", () => {
    const trace = Array.from({ length: 3000 }, (_v, i) => turn(i + 1, { content: "x".repeat(5000) }));
    const out = renderCheckRunOutput({ ...input, extraNote: "n".repeat(100000), result: result({ trace }) });
    expect(out.text.length).toBeLessThanOrEqual(MAX_CHECK_RUN_FIELD);
    expect(out.summary.length).toBeLessThanOrEqual(MAX_CHECK_RUN_FIELD);
    expect(out.text).toMatch(/more rows not shown/);
    expect(out.text).toMatch(/truncated by Loupe/);
  });

  it("sanitises Loupe's extra note", () => {
    expect(
      renderCheckRunOutput({ ...input, extraNote: "posted <b>@x</b>", result: result() }).summary,
    ).toContain("posted &lt;b\\>＠x&lt;/b\\>");
  });
});

describe("progress and skip outputs", () => {
  it("shows the round and running totals", () => {
    const out = renderProgressOutput(
      {
        round: 2,
        maxRounds: 8,
        toolCalls: 5,
        totalTokens: 9000,
        usage: { prompt_tokens: 8000, completion_tokens: 1000, total_tokens: 9000 },
        spend: NO_SPEND,
      },
      SHA,
    );
    expect(out.title).toBe("Loupe: reviewing (round 2 of 8)");
    expect(out.summary).toContain("5 tool calls, 9000 tokens");
    expect(out.summary).not.toContain("Waiting");
  });

  it("says when the next model request waits for its share of the provider, and why", () => {
    const progress = {
      round: 1,
      maxRounds: 8,
      toolCalls: 0,
      totalTokens: 0,
      usage: { prompt_tokens: 0, completion_tokens: 0, total_tokens: 0 },
      spend: NO_SPEND,
    };
    const backOff = renderProgressOutput({ ...progress, waiting: { cause: "back_off", seconds: 5 } }, SHA);
    expect(backOff.summary).toContain("Waiting for the model provider (about 5 s)");
    expect(backOff.summary).toContain("HTTP 429 with Retry-After");
    const full = renderProgressOutput({ ...progress, waiting: { cause: "in_flight", seconds: null } }, SHA);
    expect(full.summary).toContain("(PROVIDER_MAX_IN_FLIGHT) are in flight");
  });

  it("names the skip reason and neutralises the detail", () => {
    const out = renderSkipOutput("config_invalid", "paths.include.0: Expected string but received 3 @x");
    expect(out.title).toBe("Loupe: skipped (config_invalid)");
    expect(out.summary).toContain("paths.include.0: Expected string but received 3 ＠x");
  });
});
