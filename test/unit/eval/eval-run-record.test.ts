import { describe, expect, it } from "@jest/globals";
import { runRecord } from "../../../src/eval/run-record.ts";

const where = { key: "o__r__1", url: "https://github.com/o/r/pull/1", variant: "v", run: 2, seconds: 3.5 };
const spend = {
  rounds: 2,
  input_tokens: 300,
  cached_input_tokens: 100,
  output_tokens: 40,
  provider_dollars: null,
};

describe("what loupe eval run keeps of a review's JSON", () => {
  it("keeps findings, figures and verdicts, and counts the trace's tool calls", () => {
    const record = runRecord(where, {
      termination_reason: "final_review",
      review: { findings: [{ path: "a.ts" } as never] },
      spend,
      cost: { kind: "priced", dollars: 0.002 },
      rounds: 2,
      trace: [{ tool_calls: [{}, {}] }, { tool_calls: [] }, {}],
      verification: { kept: 1, refuted: [], unverified: [] },
    });
    expect(record).toEqual({
      ...where,
      stop_reason: "final_review",
      findings: [{ path: "a.ts" }],
      spend,
      tokens: 440,
      dollars: 0.002,
      rounds: 2,
      tool_calls: 2,
      verification: { kept: 1, refuted: [], unverified: [] },
    });
  });

  it("records a skipped change with no findings, and an unknown cost as null", () => {
    expect(runRecord(where, { skipped: { reason: "too_many_files" } })).toMatchObject({
      stop_reason: "skipped:too_many_files",
      findings: [],
      tokens: 0,
      dollars: 0,
    });
    expect(
      runRecord(where, { termination_reason: "budget_exhausted", cost: { kind: "unpriced" } }),
    ).toMatchObject({
      stop_reason: "budget_exhausted",
      dollars: null,
      verification: null,
    });
  });
});
