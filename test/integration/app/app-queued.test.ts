// Reviews that wait their turn, through Probot: a request the queue cannot start at once gets a
// `queued` check run at once; the job takes that run over when it starts; a newer push replaces a
// waiting request and closes its run as superseded; a shutdown closes every waiting run as
// cancelled. Nothing waits invisibly, nothing is left queued or in_progress.

import { describe, expect, it } from "@jest/globals";
import { formatExternalId } from "../../../src/forges/github/external-id.ts";
import type { ReviewPorts } from "../../../src/pipeline/review-ports.ts";
import {
  APP_ID,
  expectCleanEnd,
  mockReviewStart,
  OWNER,
  PR,
  pullRequestData,
  pullRequestPayload,
  REPO,
  useAppScenario,
} from "../../support/app-scenario.ts";
import { review, stopTurn } from "../../support/chat-turns.ts";
import { type GitHubMock, mockGitHub } from "../../support/github-mock.ts";
import { webhookExample } from "../../support/webhook-examples.ts";

const OTHER_PR = PR + 1;
let secondHead: string;
const app = useAppScenario({
  // The check_run example names github/hello-world: the same fixture is served under both names.
  repositories: [{ names: [`${OWNER}/${REPO}`, "github/hello-world"], pullNumber: PR }],
  beforePublish: (fx) => {
    secondHead = fx.push("src/util.ts", "export const twice = (n: number) => n + n;\n");
  },
  harness: { botLogin: "loupe-test[bot]", config: { reviewConcurrency: 1 } },
});

/** Waits for a condition the test itself causes (no time threshold: jest's timeout is the bound). */
async function until(condition: () => boolean): Promise<void> {
  while (!condition()) await new Promise((resolve) => setTimeout(resolve, 5));
}

/** The same repository's other pull request (same commits, another number). */
function otherPullRequest(action: string, headSha?: string) {
  const payload = pullRequestPayload(app.fx, action, headSha);
  payload.number = OTHER_PR;
  payload.pull_request.number = OTHER_PR;
  return payload;
}

/** Ports whose loop waits for `release()` while reviewing pull request `pr`. */
function holding(pr: number) {
  let release!: () => void;
  const gate = new Promise<void>((resolve) => {
    release = resolve;
  });
  const ports = (real: ReviewPorts): ReviewPorts => ({
    ...real,
    runLoop: async (input) => {
      if (input.pullRequest.number === pr) await gate;
      return real.runLoop(input);
    },
  });
  return { ports, release: () => release() };
}

/**
 * Two clean reviews are scripted; the first, of pull request PR, holds the only slot until
 * `hold.release()`. Its own GitHub calls are mocked (check run 1, compare, the publish lists).
 */
async function startWithFirstReviewHeld() {
  const hold = holding(PR);
  const h = await app.start([{ body: stopTurn(review([])) }, { body: stopTurn(review([])) }], {
    ports: hold.ports,
  });
  const gh = mockReviewStart(app.fx, { checkRunId: 1 }).listReviewComments(PR).listReviews(PR);
  return { h, hold, gh };
}

const checkRunPosts = (gh: GitHubMock) =>
  gh.calls.filter((c) => c.method === "POST" && c.path.endsWith("/check-runs")).map((c) => c.body);

describe("a review that has to wait", () => {
  it("shows a queued check run at once, and a shutdown completes it cancelled", async () => {
    const h = await app.start([{ fault: "hang" }]);
    const gh = mockReviewStart(app.fx, { checkRunId: 1 }).createCheckRun(2).updateCheckRun(2);
    gh.listReviewComments(PR).listReviews(PR);
    await h.receive("pull_request", pullRequestPayload(app.fx, "opened"));
    await until(() => app.provider.requests.length === 1);
    await h.receive("pull_request", otherPullRequest("opened"));
    await until(() => checkRunPosts(gh).length === 2);

    const queued = checkRunPosts(gh)[1] as Record<string, unknown>;
    expect(queued).toMatchObject({
      status: "queued",
      head_sha: app.fx.headSha,
      external_id: formatExternalId(OTHER_PR),
      output: { title: "Loupe: queued" },
    });
    expect(queued).not.toHaveProperty("started_at");

    await h.queue.shutdown(0);
    for (const id of [1, 2]) {
      const done = gh.completion(id);
      expect(done.conclusion).toBe("cancelled");
      expect((done.output as { title: string }).title).toBe("Loupe restarted; press Re-run");
    }
    expect(gh.checkRunUpdates(2)).toHaveLength(1); // never started: only its completion
    expect(app.provider.requests).toHaveLength(1);
    expectCleanEnd(h, app.provider, [gh]);
  });

  it("is replaced by a newer push (its run cancelled naming the new SHA); the new head's queued run is taken over", async () => {
    const { h, hold, gh } = await startWithFirstReviewHeld();
    gh.createCheckRun(2).updateCheckRun(2).createCheckRun(3).updateCheckRun(3);
    gh.configMissing()
      .compare(`${app.fx.baseSha}...${secondHead}`, app.fx.compareData(secondHead))
      .listReviewComments(OTHER_PR)
      .listReviews(OTHER_PR);

    await h.receive("pull_request", pullRequestPayload(app.fx, "opened"));
    await h.receive("pull_request", otherPullRequest("opened"));
    await until(() => checkRunPosts(gh).length === 2);
    await h.receive("pull_request", otherPullRequest("synchronize", secondHead));
    await until(() => checkRunPosts(gh).length === 3);
    hold.release();
    await h.drain();

    const replaced = gh.completion(2);
    expect(replaced.conclusion).toBe("cancelled");
    expect((replaced.output as { title: string }).title).toBe(`Superseded by ${secondHead.slice(0, 7)}`);
    expect(checkRunPosts(gh)[2]).toMatchObject({ status: "queued", head_sha: secondHead });
    // The waiting review for the new head took its queued run over: in_progress, then completed.
    const updates = gh.checkRunUpdates(3);
    expect(updates[0]).toMatchObject({ status: "in_progress", output: { title: "Loupe: reviewing" } });
    expect(updates[0]).toHaveProperty("started_at");
    expect(gh.completion(3).conclusion).toBe("success");
    expect(gh.completion(1).conclusion).toBe("success");
    expect(checkRunPosts(gh)).toHaveLength(3); // no fourth run: the queued one was reused
    expect(app.provider.requests).toHaveLength(2);
    expectCleanEnd(h, app.provider, [gh]);
  });

  it("a re-run that waited for an older head closes its queued run as superseded and reviews the current head", async () => {
    const { h, hold, gh } = await startWithFirstReviewHeld();
    // The check_run example is a fork PR of github/hello-world (same installation, so one token).
    const rerun = webhookExample("check_run", "rerequested");
    rerun.check_run.app.id = APP_ID;
    rerun.check_run.head_sha = "0".repeat(40); // the run being re-run is on an older head
    rerun.check_run.external_id = formatExternalId(PR);
    const fork = mockGitHub("github", "hello-world", 1)
      .createCheckRun(2)
      .updateCheckRun(2)
      .createCheckRun(3)
      .updateCheckRun(3)
      .pullsGet(PR, pullRequestData(app.fx))
      .configMissing()
      .compare(`${app.fx.baseSha}...${app.fx.headSha}`, app.fx.compareData())
      .listReviewComments(PR)
      .listReviews(PR);

    await h.receive("pull_request", pullRequestPayload(app.fx, "opened"));
    await h.receive("check_run", rerun);
    await until(() => checkRunPosts(fork).length === 1);
    hold.release();
    await h.drain();

    expect(checkRunPosts(fork)[0]).toMatchObject({ status: "queued", head_sha: "0".repeat(40) });
    const closed = fork.completion(2);
    expect(closed.conclusion).toBe("cancelled");
    expect((closed.output as { title: string }).title).toBe(`Superseded by ${app.fx.headSha.slice(0, 7)}`);
    expect(checkRunPosts(fork)[1]).toMatchObject({ status: "in_progress", head_sha: app.fx.headSha });
    expect(fork.completion(3).conclusion).toBe("success");
    expect(gh.completion(1).conclusion).toBe("success");
    expectCleanEnd(h, app.provider, [gh, fork]);
  });

  it("a queued run GitHub refuses (HTTP 500) costs nothing: the review creates its own run when it starts", async () => {
    const { h, hold, gh } = await startWithFirstReviewHeld();
    gh.scope.post(`/repos/${OWNER}/${REPO}/check-runs`).reply(500, { message: "Server Error" });
    gh.createCheckRun(2).updateCheckRun(2).configMissing();
    gh.compare(`${app.fx.baseSha}...${app.fx.headSha}`, app.fx.compareData());
    gh.listReviewComments(OTHER_PR).listReviews(OTHER_PR);

    await h.receive("pull_request", pullRequestPayload(app.fx, "opened"));
    await h.receive("pull_request", otherPullRequest("opened"));
    await until(() => h.logs().some((line) => line.includes("queued check run not created")));
    hold.release();
    await h.drain();

    // The refused POST went to a plain interceptor (expectCleanEnd shows it was used): two recorded.
    expect(checkRunPosts(gh)).toHaveLength(2);
    expect(checkRunPosts(gh)[1]).toMatchObject({
      status: "in_progress",
      external_id: formatExternalId(OTHER_PR),
    });
    expect(gh.completion(2).conclusion).toBe("success");
    expectCleanEnd(h, app.provider, [gh]);
  });

  it("a queued run GitHub will not move to in_progress (HTTP 500) is still completed by its review", async () => {
    const { h, hold, gh } = await startWithFirstReviewHeld();
    gh.createCheckRun(2);
    gh.scope.patch(`/repos/${OWNER}/${REPO}/check-runs/2`).reply(500, { message: "Server Error" });
    gh.updateCheckRun(2).configMissing();
    gh.compare(`${app.fx.baseSha}...${app.fx.headSha}`, app.fx.compareData());
    gh.listReviewComments(OTHER_PR).listReviews(OTHER_PR);

    await h.receive("pull_request", pullRequestPayload(app.fx, "opened"));
    await h.receive("pull_request", otherPullRequest("opened"));
    await until(() => checkRunPosts(gh).length === 2);
    hold.release();
    await h.drain();

    expect(h.logs().some((line) => line.includes("queued check run not started"))).toBe(true);
    expect(gh.completion(2).conclusion).toBe("success");
    expect(checkRunPosts(gh)).toHaveLength(2);
    expectCleanEnd(h, app.provider, [gh]);
  });
});
