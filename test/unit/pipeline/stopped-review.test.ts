import { describe, expect, it } from "@jest/globals";
import { LoupeError } from "../../../src/domain/errors.ts";
import { NO_SPEND } from "../../../src/domain/spend.ts";
import { stoppedRecord, unlessStopped, workerStopOf } from "../../../src/pipeline/stopped-review.ts";

describe("a worker stop as a value", () => {
  it("is read from a LoupeError whose code is a worker stop reason, and from nothing else", () => {
    expect(workerStopOf(new LoupeError("worker_out_of_memory", "x"))).toBe("worker_out_of_memory");
    expect(workerStopOf(new LoupeError("worker_timeout", "x"))).toBe("worker_timeout");
    expect(workerStopOf(new LoupeError("git_timeout", "x"))).toBeNull();
    expect(workerStopOf(Object.assign(new Error("x"), { code: "worker_timeout" }))).toBeNull();
    expect(workerStopOf("worker_timeout")).toBeNull();
  });

  it("unlessStopped turns a stop into a value and lets every other error through", async () => {
    expect(await unlessStopped(async () => 7)).toEqual({ kind: "done", value: 7 });
    expect(
      await unlessStopped(async () => {
        throw new LoupeError("worker_timeout", "x");
      }),
    ).toEqual({ kind: "stopped", reason: "worker_timeout" });
    const other = new LoupeError("git_aborted", "x");
    await expect(
      unlessStopped(async () => {
        throw other;
      }),
    ).rejects.toBe(other);
  });

  it("keeps the figures of the last round reported, and nothing when no round ran", () => {
    const usage = { prompt_tokens: 90, completion_tokens: 10, total_tokens: 100 };
    const spend = { ...NO_SPEND, rounds: 2, input_tokens: 90, output_tokens: 10, provider_dollars: null };
    expect(
      stoppedRecord(
        "worker_timeout",
        { round: 2, maxRounds: 8, toolCalls: 3, totalTokens: 100, usage, spend },
        1234,
      ),
    ).toEqual({
      termination_reason: "worker_timeout",
      usage,
      spend,
      rounds: 2,
      tool_calls: 3,
      duration_ms: 1234,
      trace: null,
    });
    expect(stoppedRecord("worker_out_of_memory", null, 0)).toMatchObject({
      rounds: 0,
      tool_calls: 0,
      usage: { prompt_tokens: 0, completion_tokens: 0, total_tokens: 0 },
    });
  });
});
