// A repository worker that never yields is terminated at its deadline by the server's thread:
// the review ends `worker_timeout` with a completed check run, the review running beside it in
// the other worker finishes as if nothing happened, and the next review gets a new worker. The
// App runs its repository work in worker threads as the server does (the harness's `isolation`),
// with a worker script whose loop spins for a pull request titled "[spin]" (spinning-worker.ts).

import { afterEach, describe, expect, it } from "@jest/globals";
import { TERMINATION_SENTENCES } from "../../../src/domain/outcome.ts";
import { formatExternalId } from "../../../src/forges/github/external-id.ts";
import {
  expectCleanEnd,
  mockReviewStart,
  PR,
  pullRequestPayload,
  useAppScenario,
} from "../../support/app-scenario.ts";
import { review, stopTurn } from "../../support/chat-turns.ts";
import type { GitHubMock } from "../../support/github-mock.ts";
import type { ProbotHarness } from "../../support/probot-harness.ts";

let secondHead: string;
const app = useAppScenario({
  beforePublish: (fx) => {
    secondHead = fx.push("src/util.ts", "export const twice = (n: number) => n + n;\n");
  },
  harness: { botLogin: "loupe-test[bot]" },
});
const SPINNING_WORKER = new URL("../../support/spinning-worker.ts", import.meta.url);
/**
 * How long a worker past its deadline, or asked to stop, is waited for before it is terminated:
 * the server's least grace (deadlineGraceMs), rather than the tenth of a minute the second test's
 * review time would give it. A spinning worker never answers, so the grace is only waited out; it
 * is also the whole bound of the calls without a budget of their own (a plan, a dispose), which
 * the reviews that do finish make.
 */
const GRACE_MS = 2_000;

let harness: ProbotHarness | null = null;
afterEach(async () => {
  await harness?.close();
  harness = null;
});

/** Waits for a condition the test itself causes (no time threshold: jest's timeout is the bound). */
async function until(condition: () => boolean): Promise<void> {
  while (!condition()) await new Promise((resolve) => setTimeout(resolve, 5));
}

/** pull_request.<action> of the fixture's change under another number and title. */
function pullRequest(number: number, title: string, action = "opened", headSha?: string) {
  const payload = pullRequestPayload(app.fx, action, headSha);
  payload.number = number;
  payload.pull_request.number = number;
  payload.pull_request.title = title;
  return payload;
}

/** The check run completions by pull request: runs are numbered in the order they were created. */
function completionsByPullRequest(gh: GitHubMock): Map<number, Record<string, unknown>> {
  const created = gh.calls.filter((c) => c.method === "POST" && c.path.endsWith("/check-runs"));
  const byPr = new Map<number, Record<string, unknown>>();
  created.forEach((call, index) => {
    const externalId = (call.body as { external_id: string }).external_id;
    for (const pr of [PR, PR + 1, PR + 2]) {
      if (externalId === formatExternalId(pr)) byPr.set(pr, gh.completion(index + 1));
    }
  });
  return byPr;
}

describe("a repository worker that never yields", () => {
  it("is terminated at its deadline: worker_timeout, while the other review and the next one finish", async () => {
    // The review's time counts from before its first git read: the spinning loop must start
    // within it however slowly a shared machine fetches, and the stuck worker blocks without
    // using a CPU (spinning-worker.ts), so a longer deadline costs wall time only.
    const timeoutMs = 12_000;
    harness = await app.start([{ body: stopTurn(review([])) }, { body: stopTurn(review([])) }], {
      limits: { timeoutMs },
      isolation: { entry: SPINNING_WORKER, graceMs: GRACE_MS },
    });
    const h = harness;
    const gh = mockReviewStart(app.fx, { checkRunId: 1 });
    gh.createCheckRun(2).updateCheckRun(2).createCheckRun(3).updateCheckRun(3);
    gh.configMissing().configMissing();
    gh.compare(`${app.fx.baseSha}...${app.fx.headSha}`, app.fx.compareData());
    gh.compare(`${app.fx.baseSha}...${app.fx.headSha}`, app.fx.compareData());
    for (const pr of [PR, PR + 1, PR + 2]) gh.listReviewComments(pr).listReviews(pr);

    // Both at once: the first spins in one worker, the second runs in the other.
    await h.receive("pull_request", pullRequest(PR, "[spin] A change that never gets reviewed"));
    await h.receive("pull_request", pullRequest(PR + 1, "A change reviewed beside it"));
    await h.drain();
    // Then one more: its worker is the one that replaced the terminated one, or the other.
    await h.receive("pull_request", pullRequest(PR + 2, "A change reviewed after it"));
    await h.drain();

    const done = completionsByPullRequest(gh);
    const stuck = done.get(PR)!;
    expect(stuck.conclusion).toBe("neutral");
    const output = stuck.output as { title: string; summary: string };
    expect(output.title).toBe("Loupe: review incomplete (worker_timeout)");
    expect(output.summary).toContain(TERMINATION_SENTENCES.worker_timeout);
    expect(done.get(PR + 1)?.conclusion).toBe("success");
    expect(done.get(PR + 2)?.conclusion).toBe("success");
    expect(app.provider.requests).toHaveLength(2);
    expect(h.logs().filter((line) => line.includes('"reason":"worker_timeout"'))).toHaveLength(1);
    expectCleanEnd(h, app.provider, [gh]);
  });

  it("superseded while it spins: the cancel it cannot hear is followed by terminate, and the new head is reviewed", async () => {
    harness = await app.start([{ body: stopTurn(review([])) }], {
      limits: { timeoutMs: 60_000 },
      isolation: { entry: SPINNING_WORKER, graceMs: GRACE_MS },
    });
    const h = harness;
    const gh = mockReviewStart(app.fx, { checkRunId: 1 }).listReviewComments(PR).listReviews(PR);
    gh.createCheckRun(2).updateCheckRun(2).configMissing();
    gh.compare(`${app.fx.baseSha}...${secondHead}`, app.fx.compareData(secondHead));
    gh.listReviewComments(PR).listReviews(PR);
    const historyReads = () => gh.calls.filter((c) => c.path.endsWith(`/pulls/${PR}/reviews`)).length;

    await h.receive("pull_request", pullRequest(PR, "[spin] A push soon replaced"));
    await until(() => historyReads() === 1); // the loop, next, spins in its worker
    await h.receive("pull_request", pullRequest(PR, "A push that replaces it", "synchronize", secondHead));
    await h.drain();

    const replaced = gh.completion(1);
    expect(replaced.conclusion).toBe("cancelled");
    expect((replaced.output as { title: string }).title).toBe(`Superseded by ${secondHead.slice(0, 7)}`);
    expect(gh.completion(2).conclusion).toBe("success");
    expect(app.provider.requests).toHaveLength(1);
    expect(h.logs().filter((line) => line.includes('"reason":"cancelled"'))).toHaveLength(1);
    expectCleanEnd(h, app.provider, [gh]);
  });
});
