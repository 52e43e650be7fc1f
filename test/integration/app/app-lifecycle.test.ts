// The queue's promises, through Probot: a newer push supersedes a running review (its check run
// is cancelled and names the new SHA), a redelivered webhook is not reviewed twice, and a
// shutdown mid-review cancels the check run ("Loupe restarted; press Re-run") — never in_progress.

import { describe, expect, it } from "@jest/globals";
import {
  expectCleanEnd,
  mockReviewStart,
  OWNER,
  PR,
  pullRequestPayload,
  REPO,
  useAppScenario,
} from "../../support/app-scenario.ts";
import { review, stopTurn } from "../../support/chat-turns.ts";
import { mockGitHub } from "../../support/github-mock.ts";
import type { ProbotHarness } from "../../support/probot-harness.ts";

let secondHead: string;
const app = useAppScenario({
  // The push the synchronize events name: on the server before any review starts.
  beforePublish: (fx) => {
    secondHead = fx.push("src/util.ts", "export const twice = (n: number) => n + n;\n");
  },
  harness: { botLogin: "loupe-test[bot]" },
});

/** Waits for a condition the test itself causes (no time threshold: jest's timeout is the bound). */
async function until(condition: () => boolean): Promise<void> {
  while (!condition()) await new Promise((resolve) => setTimeout(resolve, 5));
}

const outcomes = (h: ProbotHarness) =>
  h
    .logs()
    .map((line) => JSON.parse(line) as { msg?: string; outcome?: string })
    .filter((l) => l.msg === "review request")
    .map((l) => l.outcome);

describe("supersede", () => {
  it("a synchronize while a review runs → the older run is cancelled naming the new SHA; the new head is reviewed", async () => {
    const h = await app.start([{ fault: "hang" }, { body: stopTurn(review([])) }]);
    const gh = mockReviewStart(app.fx, { checkRunId: 1 }).listReviewComments(PR).listReviews(PR);
    const gh2 = mockGitHub(OWNER, REPO, 1).createCheckRun(2).updateCheckRun(2).configMissing();
    gh2
      .compare(`${app.fx.baseSha}...${secondHead}`, app.fx.compareData(secondHead))
      .listReviewComments(PR)
      .listReviews(PR);

    await h.receive("pull_request", pullRequestPayload(app.fx, "opened"));
    await until(() => app.provider.requests.length === 1); // the first review is in the model call
    await h.receive("pull_request", pullRequestPayload(app.fx, "synchronize", secondHead));
    await h.drain();

    const first = gh.completion(1);
    expect(first.conclusion).toBe("cancelled");
    const output = first.output as { title: string; summary: string };
    expect(output.title).toBe(`Superseded by ${secondHead.slice(0, 7)}`);
    expect(output.summary).toContain(secondHead);
    expect(gh2.calls.find((c) => c.path.endsWith("/check-runs"))!.body).toMatchObject({
      head_sha: secondHead,
    });
    expect(gh2.completion(2).conclusion).toBe("success");
    expect(outcomes(h)).toEqual(["queued", "queued"]);
    expectCleanEnd(h, app.provider, [gh, gh2]);
  });
});

describe("redelivery", () => {
  it("the same delivery id twice → one review; a new delivery for a reviewed SHA → none either", async () => {
    const h = await app.start([{ body: stopTurn(review([])) }]);
    const gh = mockReviewStart(app.fx).listReviewComments(PR).listReviews(PR);
    const payload = pullRequestPayload(app.fx, "opened");
    await h.receive("pull_request", payload, "delivery-same");
    await h.drain();
    await h.receive("pull_request", payload, "delivery-same");
    await h.receive("pull_request", pullRequestPayload(app.fx, "synchronize"), "delivery-other");
    await h.drain();
    expect(outcomes(h)).toEqual(["queued", "duplicate_delivery", "already_reviewed"]);
    expect(gh.calls.filter((c) => c.path.endsWith("/check-runs"))).toHaveLength(1);
    expect(app.provider.requests).toHaveLength(1);
    expectCleanEnd(h, app.provider, [gh]);
  });
});

describe("shutdown", () => {
  it("mid-review → the check run is completed cancelled, nothing is left in_progress", async () => {
    const h = await app.start([{ fault: "hang" }]);
    const gh = mockReviewStart(app.fx).listReviewComments(PR).listReviews(PR);
    await h.receive("pull_request", pullRequestPayload(app.fx, "opened"));
    await until(() => app.provider.requests.length === 1);
    await h.queue.shutdown(0);
    const updates = gh.checkRunUpdates(1);
    expect(updates.at(-1)).toMatchObject({ status: "completed", conclusion: "cancelled" });
    expect((updates.at(-1)!.output as { title: string }).title).toBe("Loupe restarted; press Re-run");
    expect(h.queue.stats()).toEqual({ running: 0, pending: 0 });
    await h.receive("pull_request", pullRequestPayload(app.fx, "synchronize", secondHead));
    expect(outcomes(h).at(-1)).toBe("shutting_down");
    expectCleanEnd(h, app.provider, [gh]);
  });
});
