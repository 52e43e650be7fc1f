// The verification step's own rules, with the verification port swapped (as review-ports.ts
// allows) to force the paths a scripted provider cannot reach: a worker stopped mid-pass, a
// cancelled review, a check that ends without a verdict. The pass over the real port, provider
// and tools is test/integration/app-verify.test.ts.

import { describe, expect, it } from "@jest/globals";
import { DEFAULT_REVIEW_LIMITS } from "../../src/config/review-limits.ts";
import type { Finding } from "../../src/domain/finding.ts";
import type { PullRequest } from "../../src/domain/pull-request.ts";
import { NO_SPEND } from "../../src/domain/spend.ts";
import type { LoopResult } from "../../src/llm/types.ts";
import type { VerifyInput, VerifyResult } from "../../src/pipeline/review-ports.ts";
import { verifyStep } from "../../src/pipeline/verify-step.ts";
import type { Workspace } from "../../src/workspace/types.ts";

const finding = (line: number): Finding => ({
  severity: "high",
  title: `f${line}`,
  explanation: "e",
  path: "a.ts",
  line,
  evidence: "e",
  recommendation: "r",
});
const usage = { prompt_tokens: 90, completion_tokens: 10, total_tokens: 100 };
const looped: LoopResult = {
  termination_reason: "final_review",
  review: { summary: "s", findings: [finding(1), finding(2), finding(3)], notes: [] },
  usage,
  spend: { ...NO_SPEND, rounds: 1, input_tokens: 90, output_tokens: 10 },
  rounds: 1,
  tool_calls: 0,
  duration_ms: 5,
  trace: [],
};
const record = (over: Partial<VerifyResult>): VerifyResult => ({
  termination_reason: "final_review",
  usage,
  spend: { ...NO_SPEND, rounds: 1, input_tokens: 90, output_tokens: 10 },
  rounds: 1,
  tool_calls: 1,
  duration_ms: 5,
  trace: null,
  answer: { verdict: "confirmed", reason: "r", quote: null },
  quote_found: false,
  ...over,
});

const STEP = {
  view: {} as Workspace,
  result: looped,
  repository: { owner: "o", repo: "r", host: "github.com" },
  pullRequest: { headSha: "h" } as PullRequest,
  mergeBaseSha: "m",
};

async function pass(answers: VerifyResult[], signal = new AbortController().signal) {
  const asked: VerifyInput<Workspace>[] = [];
  const spends: unknown[] = [];
  const result = await verifyStep<Workspace>(
    {
      reviewLimits: { ...DEFAULT_REVIEW_LIMITS, verify: true },
      verifyFinding: async (input) => {
        asked.push(input);
        return answers.shift() ?? record({});
      },
    },
    { ...STEP, signal, budget: { maxTokens: null, spent: (spend) => spends.push(spend) } },
  );
  return { result, asked, spends };
}

describe("the verification step", () => {
  it("adds every verification's figures to the review's and tells the held budget", async () => {
    const { result, spends } = await pass([]);
    expect(result).toMatchObject({ rounds: 4, tool_calls: 3, duration_ms: 20, usage: { total_tokens: 400 } });
    expect(result.spend).toMatchObject({ rounds: 4, input_tokens: 360, output_tokens: 40 });
    expect(spends).toHaveLength(3);
    expect(result.verification).toEqual({
      kept: 3,
      unproven: 0,
      refuted: [],
      unverified: [],
      verdicts: ["confirmed", "confirmed", "confirmed"],
    });
  });

  it("holds back only a refutation whose quote was found", async () => {
    const refuted = (found: boolean) =>
      record({ answer: { verdict: "refuted", reason: "no", quote: "q" }, quote_found: found });
    const { result } = await pass([refuted(true), refuted(false)]);
    expect(result.review?.findings.map((f) => f.line)).toEqual([2, 3]);
    expect(result.verification).toMatchObject({ kept: 2, unproven: 1, refuted: [{ quote: "q" }] });
  });

  it("keeps the rest unverified after a check without a verdict", async () => {
    const { result, asked } = await pass([
      record({}),
      record({ termination_reason: "provider_rate_limited", answer: null }),
    ]);
    expect(asked).toHaveLength(2);
    expect(result.review?.findings).toHaveLength(3);
    expect(result.verification?.unverified.map((f) => f.line)).toEqual([2, 3]);
  });

  it("ends the review as its worker ended when the worker was stopped mid-pass", async () => {
    const { result } = await pass([record({ termination_reason: "worker_out_of_memory", answer: null })]);
    expect(result).toMatchObject({ termination_reason: "worker_out_of_memory", review: null, trace: null });
  });

  it("sends nothing more once the review is cancelled", async () => {
    const controller = new AbortController();
    controller.abort();
    const { result, asked } = await pass([], controller.signal);
    expect(asked).toHaveLength(0);
    expect(result).toMatchObject({ termination_reason: "cancelled", review: null });
  });

  it("does nothing when it is off", async () => {
    const result = await verifyStep(
      {
        reviewLimits: { ...DEFAULT_REVIEW_LIMITS, verify: false },
        verifyFinding: () => Promise.reject(new Error("sent")),
      },
      { ...STEP, signal: new AbortController().signal, budget: { maxTokens: null, spent: () => {} } },
    );
    expect(result).toBe(looped);
  });
});
