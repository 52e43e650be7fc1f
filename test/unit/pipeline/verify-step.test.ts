// The verification step's own rules, with the verification port swapped (as review-ports.ts
// allows) to force the paths a scripted provider cannot reach: a worker stopped mid-pass, a
// cancelled review, a check that ends without a verdict. The pass over the real port, provider
// and tools is test/integration/app/app-verify.test.ts.

import { describe, expect, it } from "@jest/globals";
import { DEFAULT_REVIEW_LIMITS } from "../../../src/config/review-limits.ts";
import type { Finding } from "../../../src/domain/finding.ts";
import type { PullRequest } from "../../../src/domain/pull-request.ts";
import { NO_SPEND } from "../../../src/domain/spend.ts";
import type { LoopResult } from "../../../src/llm/types.ts";
import type { VerifyInput, VerifyResult } from "../../../src/pipeline/review-ports.ts";
import { verifyStep } from "../../../src/pipeline/verify-step.ts";
import type { Workspace } from "../../../src/workspace/types.ts";

const finding = (line: number, severity: Finding["severity"] = "medium"): Finding => ({
  severity,
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
  refutation_proven: false,
  evidence_quoted: true,
  ...over,
});

const STEP = {
  view: {} as Workspace,
  result: looped,
  repository: { owner: "o", repo: "r", host: "github.com" },
  pullRequest: { headSha: "h" } as PullRequest,
  mergeBaseSha: "m",
};

async function pass(
  answers: VerifyResult[],
  signal = new AbortController().signal,
  result: LoopResult = looped,
) {
  const asked: VerifyInput<Workspace>[] = [];
  const spends: unknown[] = [];
  // The review's clock: each verification takes 5 ms of it, whatever runs beside it.
  let clock = 0;
  let inFlight = 0;
  let widest = 0;
  const verified = await verifyStep<Workspace>(
    {
      reviewLimits: { ...DEFAULT_REVIEW_LIMITS, verify: true },
      verifyFinding: async (input) => {
        asked.push(input);
        inFlight++;
        widest = Math.max(widest, inFlight);
        await new Promise((resolve) => setImmediate(resolve));
        clock += 5;
        inFlight--;
        return answers.shift() ?? record({});
      },
    },
    {
      ...STEP,
      result,
      signal,
      now: () => clock,
      budget: { maxTokens: null, spent: (spend) => spends.push(spend) },
    },
  );
  return { result: verified, asked, spends, widest };
}

describe("the verification step", () => {
  it("adds every verification's figures to the review's and tells the held budget", async () => {
    const { result, spends } = await pass([]);
    // Three verifications side by side: the review's time grows by the wall time, not their sum.
    expect(result).toMatchObject({ rounds: 4, tool_calls: 3, duration_ms: 20, usage: { total_tokens: 400 } });
    expect(result.spend).toMatchObject({ rounds: 4, input_tokens: 360, output_tokens: 40 });
    expect(spends).toHaveLength(3);
    expect(result.verification).toEqual({
      kept: 3,
      unproven: 0,
      refuted: [],
      disputed: [],
      unverified: [],
      unquoted: 0,
      verdicts: ["confirmed", "confirmed", "confirmed"],
    });
  });

  it("checks a few findings at a time, within the tokens the review has left", async () => {
    const ten: LoopResult = {
      ...looped,
      usage: { ...usage, total_tokens: DEFAULT_REVIEW_LIMITS.maxTokens - 40_000 },
      review: { summary: "s", findings: Array.from({ length: 10 }, (_, i) => finding(i + 1)), notes: [] },
    };
    const { asked, widest } = await pass([], new AbortController().signal, ten);
    expect(widest).toBe(4);
    expect(asked).toHaveLength(10);
    // Four in flight share what is left: none may be promised more than its part.
    expect(asked.slice(0, 4).map((a) => a.limits.maxTokens)).toEqual([10_000, 10_000, 10_000, 10_000]);
  });

  it("holds back a proven refutation below high severity, and counts evidence that quotes no code", async () => {
    const refuted = (proven: boolean) =>
      record({
        answer: { verdict: "refuted", reason: "no", quote: "q" },
        refutation_proven: proven,
        evidence_quoted: false,
      });
    const { result } = await pass([refuted(true), refuted(false)]);
    expect(result.review?.findings.map((f) => f.line)).toEqual([2, 3]);
    expect(result.verification).toMatchObject({
      kept: 2,
      unproven: 1,
      refuted: [{ quote: "q" }],
      unquoted: 2,
    });
  });

  it("never removes a high or critical finding: a proven refutation posts it marked as disputed", async () => {
    const severe: LoopResult = {
      ...looped,
      review: { summary: "s", findings: [finding(1, "critical"), finding(2, "high")], notes: [] },
    };
    const proven = record({
      answer: { verdict: "refuted", reason: "sanitised above", quote: "q" },
      refutation_proven: true,
    });
    const { result } = await pass([proven, proven], new AbortController().signal, severe);
    expect(result.review?.findings).toEqual([
      { ...finding(1, "critical"), disputed: { reason: "sanitised above", quote: "q" } },
      { ...finding(2, "high"), disputed: { reason: "sanitised above", quote: "q" } },
    ]);
    expect(result.verification).toMatchObject({
      kept: 0,
      refuted: [],
      disputed: [{ quote: "q" }, { quote: "q" }],
    });
  });

  it("starts no more checks after one without a verdict, keeping the rest unverified", async () => {
    const six: LoopResult = {
      ...looped,
      review: { summary: "s", findings: Array.from({ length: 6 }, (_, i) => finding(i + 1)), notes: [] },
    };
    const { result, asked } = await pass(
      [record({}), record({ termination_reason: "provider_rate_limited", answer: null })],
      new AbortController().signal,
      six,
    );
    // The first check's lane took the fifth before the second came back empty; the sixth is never sent.
    expect(asked.map((a) => a.finding.line)).toEqual([1, 2, 3, 4, 5]);
    expect(result.review?.findings).toHaveLength(6);
    expect(result.verification?.unverified.map((u) => u.finding.line)).toEqual([2, 6]);
    // Neither lacked budget: the second's check ended without a verdict, and the sixth was not started for it.
    expect(result.verification?.unverified.map((u) => u.why)).toEqual([
      { kind: "no_verdict", reason: "provider_rate_limited" },
      { kind: "no_verdict", reason: "provider_rate_limited" },
    ]);
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
      {
        ...STEP,
        signal: new AbortController().signal,
        now: () => 0,
        budget: { maxTokens: null, spent: () => {} },
      },
    );
    expect(result).toBe(looped);
  });
});
