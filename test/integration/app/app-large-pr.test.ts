// Pull requests over GitHub's 300-file compare limit: the files come from pulls.listFiles (up to
// 3,000, paginated), so `max_files` above 300 means what it says; a list GitHub itself cut is a
// skip, and a list that already shows a newer head is left to that push's review.

import { describe, expect, it } from "@jest/globals";
import {
  expectCleanEnd,
  mockPublish,
  mockReviewStart,
  OWNER,
  PR,
  pullRequestPayload,
  REPO,
  useAppScenario,
} from "../../support/app-scenario.ts";
import { finding, review, stopTurn } from "../../support/chat-turns.ts";
import type { GitHubMock } from "../../support/github-mock.ts";

const app = useAppScenario();

/** The fixture's real changed files, then generated ones up to `total`, as GitHub lists them. */
function listedFiles(total: number, ref: string): Record<string, unknown>[] {
  const real = (app.fx.compareData().files as Record<string, unknown>[]).map((file) => ({ ...file }));
  const generated = Array.from({ length: total - real.length }, (_, n) => ({
    filename: `generated/file-${String(n).padStart(4, "0")}.txt`,
    status: "added",
    additions: 1,
    deletions: 0,
    changes: 1,
    patch: "@@ -0,0 +1 @@\n+generated",
  }));
  return [...real, ...generated].map((file) => ({
    ...file,
    contents_url: `https://api.github.com/repos/${OWNER}/${REPO}/contents/${file.filename}?ref=${ref}`,
  }));
}

function bigCompare(): Record<string, unknown> {
  return { ...app.fx.compareData(), files: listedFiles(300, app.fx.headSha) };
}

/** GET …/pulls/:n/files, 100 a page, with GitHub's Link header between pages; counts the pages served. */
function mockListFiles(gh: GitHubMock, files: Record<string, unknown>[]): { served: number } {
  const counter = { served: 0 };
  const path = `/repos/${OWNER}/${REPO}/pulls/${PR}/files`;
  const pages = Math.ceil(files.length / 100);
  for (let page = 1; page <= pages; page += 1) {
    const link =
      page < pages
        ? { link: `<https://api.github.com${path}?per_page=100&page=${page + 1}>; rel="next"` }
        : undefined;
    gh.scope
      .get(path)
      .query({ per_page: "100", ...(page > 1 ? { page: String(page) } : {}) })
      .reply(() => {
        counter.served += 1;
        return [200, files.slice((page - 1) * 100, page * 100), link ?? {}];
      });
  }
  return counter;
}

describe("a pull request over the 300-file compare limit", () => {
  it("lists all 350 files with pulls.listFiles and reviews them in two passes", async () => {
    // Each pass's model names the same finding: the merged review keeps it once.
    const turn = { body: stopTurn(review([finding({ line: 2, severity: "low" })])) };
    const h = await app.start([turn, turn]);
    const gh = mockReviewStart(app.fx, { app: true, config: "max_files: 1000\n", compareData: bigCompare() });
    const list = mockListFiles(gh, listedFiles(350, app.fx.headSha));
    mockPublish(gh).createReview(PR, [200, { id: 5 }]);

    await h.receive("pull_request", pullRequestPayload(app.fx, "opened"), "delivery-350");
    await h.drain();

    expect(list.served).toBe(4);
    expect(gh.reviewsPosted()[0]!.comments).toEqual([
      expect.objectContaining({ path: "src/service.ts", line: 2, side: "RIGHT" }),
    ]);
    expect(gh.completion()).toMatchObject({ status: "completed", conclusion: "success" });
    // All 349 reviewable files (the lockfile is excluded) are covered, over two passes.
    const bodies = app.provider.requests.map((r) => r.bodyText);
    expect(bodies).toHaveLength(2);
    const covered = bodies.map((b) => Number(/it covers (\d+) of 349 changed files/.exec(b)?.[1]));
    expect(covered[0]! + covered[1]!).toBe(349);
    expect((gh.completion().output as { summary: string }).summary).toContain(
      "349 of 350 changed files reviewed",
    );
    expectCleanEnd(h, app.provider, [gh]);
  });

  it("skips with the real count when the files exceed max_files", async () => {
    const h = await app.start([]);
    const gh = mockReviewStart(app.fx, { config: "max_files: 300\n", compareData: bigCompare() });
    mockListFiles(gh, listedFiles(350, app.fx.headSha));

    await h.receive("pull_request", pullRequestPayload(app.fx, "opened"), "delivery-over");
    await h.drain();

    const done = gh.completion();
    expect(done).toMatchObject({ conclusion: "skipped" });
    expect((done.output as { summary: string }).summary).toContain("changes 350 files; `max_files` is 300");
    expect(app.provider.requests).toHaveLength(0);
    expectCleanEnd(h, app.provider, [gh]);
  });

  it("skips as too many files when GitHub's own 3,000-file list is full", async () => {
    const h = await app.start([]);
    const gh = mockReviewStart(app.fx, { config: "max_files: 3000\n", compareData: bigCompare() });
    mockListFiles(gh, listedFiles(3000, app.fx.headSha));

    await h.receive("pull_request", pullRequestPayload(app.fx, "opened"), "delivery-3000");
    await h.drain();

    const done = gh.completion();
    expect(done).toMatchObject({ conclusion: "skipped" });
    expect((done.output as { summary: string }).summary).toContain("changes 3000+ files");
    expectCleanEnd(h, app.provider, [gh]);
  });

  it("ends neutral naming github_request_failed when a page of the list is cut short; no model", async () => {
    const h = await app.start([]);
    const gh = mockReviewStart(app.fx, { config: "max_files: 1000\n", compareData: bigCompare() });
    const path = `/repos/${OWNER}/${REPO}/pulls/${PR}/files`;
    const whole = JSON.stringify(listedFiles(100, app.fx.headSha));
    gh.scope
      .get(path)
      .query({ per_page: "100" })
      .reply(200, whole.slice(0, whole.lastIndexOf("},") + 2), { "content-type": "application/json" });

    await h.receive("pull_request", pullRequestPayload(app.fx, "opened"), "delivery-cut");
    await h.drain();

    const done = gh.completion();
    expect(done).toMatchObject({ status: "completed", conclusion: "neutral" });
    expect((done.output as { summary: string }).summary).toContain(
      "Loupe stopped with `github_request_failed`.",
    );
    expect(app.provider.requests).toHaveLength(0);
    expectCleanEnd(h, app.provider, [gh]);
  });

  it("leaves the review to the newer push when the list already shows another head", async () => {
    const h = await app.start([]);
    const gh = mockReviewStart(app.fx, { config: "max_files: 1000\n", compareData: bigCompare() });
    const fetchesBefore = app.git.requests.length;
    const newer = "f".repeat(40);
    mockListFiles(gh, listedFiles(350, newer));

    await h.receive("pull_request", pullRequestPayload(app.fx, "opened"), "delivery-moved");
    await h.drain();

    const done = gh.completion();
    expect(done).toMatchObject({ status: "completed", conclusion: "cancelled" });
    expect((done.output as { summary: string }).summary).toContain(newer);
    expect(app.git.requests).toHaveLength(fetchesBefore);
    expectCleanEnd(h, app.provider, [gh]);
  });
});
