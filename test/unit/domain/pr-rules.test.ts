// The per-pull-request rules as one pure decision: every rule, and the order they apply in.

import { describe, expect, it } from "@jest/globals";
import { decideReview, type PrSnapshot } from "../../../src/domain/pr-rules.ts";

const A = "a".repeat(40);
const B = "b".repeat(40);
const idle: PrSnapshot = { deliverySeen: false, runningSha: null, waitingSha: null, reviewed: false };
const push = { headSha: B, rerun: false };
const rerun = { headSha: B, rerun: true };

describe("decideReview", () => {
  it.each([
    [
      "a delivery id counts once",
      { ...idle, deliverySeen: true, runningSha: A },
      push,
      { outcome: "duplicate_delivery" },
    ],
    [
      "the head running is not queued again",
      { ...idle, runningSha: B },
      push,
      { outcome: "already_running" },
    ],
    [
      "the head waiting is not queued again",
      { ...idle, waitingSha: B },
      push,
      { outcome: "already_pending" },
    ],
    [
      "a reviewed head is not reviewed again",
      { ...idle, reviewed: true },
      push,
      { outcome: "already_reviewed" },
    ],
    [
      "… unless a person asks",
      { ...idle, reviewed: true },
      rerun,
      { outcome: "queued", abortRunning: false, dropWaiting: false },
    ],
    [
      "a newer push supersedes the running review",
      { ...idle, runningSha: A },
      push,
      { outcome: "queued", abortRunning: true, dropWaiting: false },
    ],
    [
      "and replaces the waiting one",
      { ...idle, runningSha: A, waitingSha: A },
      push,
      { outcome: "queued", abortRunning: true, dropWaiting: true },
    ],
    [
      "a re-run waits behind a running review",
      { ...idle, runningSha: A },
      rerun,
      { outcome: "queued", abortRunning: false, dropWaiting: false },
    ],
    [
      "a re-run never displaces a waiting push",
      { ...idle, waitingSha: A },
      rerun,
      { outcome: "already_pending" },
    ],
    [
      "a superseded review (no head) is not aborted again",
      idle,
      push,
      { outcome: "queued", abortRunning: false, dropWaiting: false },
    ],
  ] as const)("%s", (_rule, state, request, decision) => {
    expect(decideReview(state, request)).toEqual(decision);
  });
});
