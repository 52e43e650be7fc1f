import { describe, expect, it } from "@jest/globals";
import { NO_SPEND } from "../../../../src/domain/spend.ts";
import { createProgressThrottle } from "../../../../src/forges/github/check-runs/progress-throttle.ts";
import type { RoundProgress } from "../../../../src/llm/types.ts";

const round = (n: number): RoundProgress => ({
  round: n,
  maxRounds: 8,
  toolCalls: n,
  totalTokens: 100 * n,
  usage: { prompt_tokens: 90 * n, completion_tokens: 10 * n, total_tokens: 100 * n },
  spend: NO_SPEND,
});

function harness(intervalMs: number) {
  let clock = 0;
  const sent: number[] = [];
  const errors: unknown[] = [];
  const pending: Array<{ resolve: () => void; reject: (e: unknown) => void }> = [];
  const reporter = createProgressThrottle({
    intervalMs,
    now: () => clock,
    send: (p) =>
      new Promise<void>((resolve, reject) => {
        sent.push(p.round);
        pending.push({ resolve, reject });
      }),
    onError: (e) => errors.push(e),
  });
  const flush = () => new Promise((resolve) => setImmediate(resolve));
  return { reporter, sent, errors, pending, advance: (ms: number) => (clock += ms), flush };
}

describe("createProgressThrottle", () => {
  it("sends the first round, then at most one update per interval", async () => {
    const h = harness(1000);
    h.reporter.report(round(1));
    h.pending.shift()!.resolve();
    await h.flush();
    h.advance(999);
    h.reporter.report(round(2));
    h.advance(1);
    h.reporter.report(round(3));
    expect(h.sent).toEqual([1, 3]);
  });

  it("drops reports while one is in flight, and settle() waits for it", async () => {
    const h = harness(0);
    h.reporter.report(round(1));
    h.reporter.report(round(2));
    expect(h.sent).toEqual([1]);
    let settled = false;
    const settling = h.reporter.settle().then(() => {
      settled = true;
    });
    await h.flush();
    expect(settled).toBe(false);
    h.pending.shift()!.resolve();
    await settling;
    h.reporter.report(round(3)); // after settle: the completed check run must not be overwritten
    expect(h.sent).toEqual([1]);
  });

  it("reports a failed update and keeps going", async () => {
    const h = harness(0);
    h.reporter.report(round(1));
    h.pending.shift()!.reject(new Error("502"));
    await h.flush();
    expect(h.errors).toHaveLength(1);
    h.reporter.report(round(2));
    expect(h.sent).toEqual([1, 2]);
  });
});
