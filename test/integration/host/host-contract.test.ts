// One contract for the PullRequestHost port, whichever host it stands on: the same questions to
// the GitHub host (against the fake GitHub: its REST API, and git over a real `git http-backend`)
// and to the local host (the same repository on disk). Every host names the change's two commits,
// lists what changed, reads the configuration from the base side, opens the workspace itself and
// hands it over, and answers for guidance files; a host without history, publishing or threads lacks the
// object, and the pipeline's steps degrade to a full review that publishes nothing (and a reply in a
// thread to a skip, before any loop runs).

import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import { actionGitHubClient } from "../../../src/action/github-client.ts";
import { parseRepoConfig } from "../../../src/config/repo-config.ts";
import { isBotComment } from "../../../src/conversation/review-thread.ts";
import { gitHubHost } from "../../../src/forges/github/github-host.ts";
import { gitLabApi } from "../../../src/forges/gitlab/gitlab-api.ts";
import { gitLabHost } from "../../../src/forges/gitlab/gitlab-host.ts";
import { localHost } from "../../../src/forges/local/local-host.ts";
import type { HostReview, PullRequestHost } from "../../../src/host/pull-request-host.ts";
import { replyInThread } from "../../../src/pipeline/reply-in-thread.ts";
import { resolveFixed } from "../../../src/pipeline/resolve-fixed.ts";
import { scopeStep } from "../../../src/pipeline/scope-step.ts";
import { fingerprintMarker } from "../../../src/review/fingerprint.ts";
import { fetchWorkspace } from "../../../src/workspace/fetch.ts";
import { type FakeGitHub, startFakeGitHub } from "../../support/fake-github.ts";
import { type FakeGitLab, startFakeGitLab } from "../../support/fake-gitlab.ts";
import { createOneChangeRepo, type FixtureRepo } from "../../support/git-fixture.ts";

const CONFIG = "min_severity: low\n";
const silent = { info: () => {}, warn: () => {} };
let repo: FixtureRepo;
let github: FakeGitHub;
let gitlab: FakeGitLab;
let number = 0;

beforeAll(async () => {
  repo = createOneChangeRepo();
  repo.write(".github/loupe.yml", CONFIG);
  repo.commit("configuration");
  repo.git("rebase", "--quiet", "main", "change");
  // The head would review itself more kindly: no host may read the configuration there.
  repo.write(".github/loupe.yml", "min_severity: critical\n");
  repo.commit("a kinder configuration");
  repo.checkout("main");
  github = await startFakeGitHub();
  github.addRepository({
    ...{ owner: "octo", repo: "app", source: repo, config: CONFIG },
    collaborators: { dev: "write", guest: "read" },
  });
  gitlab = await startFakeGitLab();
  // GitLab's access levels: Developer (30) may push, Reporter (20) may not.
  gitlab.addProject({ path: "group/sub/app", source: repo, members: { dev: 30, guest: 20 } });
}, 60_000);

afterAll(async () => {
  await github?.stop();
  await gitlab?.stop();
  repo?.dispose();
});

type MadeHost = PullRequestHost & AsyncDisposable;

/** A host of the list by its name, so a test of one adapter does not depend on the list's order. */
const hostNamed = (name: string): (() => MadeHost) => hosts.find(([n]) => n === name)![1];

const hosts: readonly [string, () => MadeHost][] = [
  [
    "the GitHub host",
    () => {
      const pr = github.addPullRequest({ owner: "octo", repo: "app", number: ++number, headRef: "change" });
      return gitHubHost({
        octokit: actionGitHubClient({
          token: github.workflowToken("octo", "app"),
          baseUrl: `${github.url}/api/v3`,
          warn: () => {},
          // The fake GitHub has no secondary rate limit: GitHub's spacing (3 s between two
          // comments) would only make the file wait. The spacing itself: github-write-spacing.
          writeSpacingMs: 20,
        }),
        request: {
          owner: "octo",
          repo: "app",
          pullNumber: pr.number,
          headSha: pr.headSha,
          rerun: true,
          pullRequest: null,
        },
        gitBaseUrl: github.url,
        gitHost: github.host,
        fetchWorkspace: (input) => fetchWorkspace({ ...input, maxBytes: 50_000_000 }),
        botLogin: async () => "loupe[bot]",
        retry: { sleep: async () => {}, now: Date.now, deadline: Number.POSITIVE_INFINITY },
      });
    },
  ],
  [
    "the GitLab host",
    () => {
      const mr = gitlab.addMergeRequest({ project: "group/sub/app", iid: ++number, sourceBranch: "change" });
      return gitLabHost({
        api: gitLabApi({
          url: gitlab.url,
          token: gitlab.token,
          retry: { sleep: async () => {}, now: Date.now, deadline: Number.POSITIVE_INFINITY },
        }),
        target: { owner: "group/sub", repo: "app", pullNumber: mr.iid },
        url: gitlab.url,
        token: gitlab.token,
        fetchWorkspace: (input) => fetchWorkspace({ ...input, maxBytes: 50_000_000 }),
        self: async () => gitlab.username,
      });
    },
  ],
  [
    "the local host",
    () =>
      localHost({
        repo: repo.dir,
        base: "main",
        head: "change",
        env: {},
        signal: new AbortController().signal,
      }),
  ],
];

describe.each(hosts)("%s", (_name, make) => {
  it("names the change's two commits and lists what changed between them", async () => {
    await using host = make();
    const pullRequest = await host.pullRequest();
    expect(pullRequest.headSha).toBe(repo.revParse("change"));
    expect(pullRequest.baseSha).toBe(repo.revParse("main"));
    const changes = await host.changes(pullRequest);
    expect(changes.mergeBaseSha).toBe(repo.revParse("main"));
    expect(changes.files.map((f) => [f.filename, f.status])).toEqual([
      [".github/loupe.yml", "modified"],
      ["src/a.ts", "modified"],
    ]);
    expect(changes.files[1]?.patch).toContain("+export const a = 2;");
  });

  it("reads the configuration from the base side, never the head", async () => {
    await using host = make();
    const { file, source } = await host.repoConfig();
    expect(file).toEqual({ kind: "found", text: CONFIG });
    expect(source).toContain(".github/loupe.yml");
    expect(parseRepoConfig(file.kind === "found" ? file.text : null).ok).toBe(true);
  });

  it("opens the workspace itself and hands it over; disposing it twice is harmless", async () => {
    await using host = make();
    const pullRequest = await host.pullRequest();
    const controller = new AbortController();
    const workspace = await host.openWorkspace({
      pullRequest,
      mergeBaseSha: repo.revParse("main"),
      signal: controller.signal,
    });
    expect(workspace.head.commit).toBe(pullRequest.headSha);
    expect(workspace.mergeBase.commit).toBe(repo.revParse("main"));
    const entry = workspace.head.byPath.get("src/a.ts")!;
    expect(Buffer.from(await workspace.objects.readBlob(entry.oid)).toString()).toBe("export const a = 2;\n");
    await workspace.dispose();
    await workspace.dispose();
  });

  it("answers a guidance file that is not there as missing, never as an error", async () => {
    await using host = make();
    expect(Array.isArray(await host.guidance.source.list(".github/nothing"))).toBe(true);
    expect(await host.guidance.source.read("NOT-THERE.md", 1_000)).toEqual({ kind: "missing" });
  });
});

/** The forges' hosts, which have every optional capability: the same questions to each. */
const forgeHosts = hosts.filter(([name]) => name !== "the local host");

/** A person's 👎 on a comment, as each forge's page adds it. */
const thumbsDownBy: Readonly<Record<string, (commentId: number, login: string) => void>> = {
  "the GitHub host": (commentId, login) =>
    github.personReactions.push({ commentId, login, content: "-1", createdAt: "2026-01-05T10:00:00Z" }),
  "the GitLab host": (commentId, login) =>
    gitlab.award(gitlab.notes.find((note) => note.id === commentId)!, "thumbsdown", login),
};

describe.each(forgeHosts)("%s's optional capabilities", (name, make) => {
  const fingerprint = "0123456789abcdef";
  const review = (headSha: string, run: number): HostReview => ({
    headSha,
    marker: `<!-- loupe:review head=t run=${run} -->`,
    body: `A review. <!-- loupe:review head=t run=${run} -->`,
    comments: [{ path: "src/a.ts", line: 1, body: `A finding.\n\n${fingerprintMarker(fingerprint)}` }],
    allInBody: () => `All in the body. <!-- loupe:review head=t run=${run} -->`,
  });

  it("threads: listed with Loupe's login, answered at their end, resolved one by one", async () => {
    await using host = make();
    const pullRequest = await host.pullRequest();
    await host.changes(pullRequest);
    await host.publisher!.publish(review(pullRequest.headSha, 1));
    const threads = host.threads!;
    const listed = await threads.list();
    const [thread] = listed.threads;
    expect(listed.threads).toHaveLength(1);
    expect([thread!.path, thread!.isResolved]).toEqual(["src/a.ts", false]);
    expect(thread!.comments[0]!.body).toContain("A finding.");
    const rootCommentId = thread!.comments[0]!.databaseId!;
    expect(isBotComment(thread!.comments[0]!, listed.self)).toBe(true);
    await threads.reply({ rootCommentId, body: "An answer." });
    await threads.resolve(thread!.id);
    const after = (await threads.list()).threads[0]!;
    expect(after.comments.map((c) => c.body)).toEqual([thread!.comments[0]!.body, "An answer."]);
    expect(after.isResolved).toBe(true);
    await expect(threads.reply({ rootCommentId: rootCommentId + 1_000, body: "Lost." })).rejects.toThrow();
  });

  it("threads: the 👎 on Loupe's finding, listed with them when asked (the ledger's dismissals)", async () => {
    await using host = make();
    const pullRequest = await host.pullRequest();
    await host.changes(pullRequest);
    await host.publisher!.publish(review(pullRequest.headSha, 5));
    const rootCommentId = (await host.threads!.list()).threads[0]!.comments[0]!.databaseId!;
    thumbsDownBy[name]!(rootCommentId, "dev");
    const { threads } = await host.threads!.list({ thumbsDown: true });
    expect(threads.map((t) => t.thumbsDown?.map((down) => down.user?.login))).toEqual([["dev"]]);
  });

  it("resolution: a thread whose file went away is resolved, and named by its finding's fingerprint", async () => {
    await using host = make();
    const pullRequest = await host.pullRequest();
    const { files } = await host.changes(pullRequest);
    await host.publisher!.publish(review(pullRequest.headSha, 2));
    const gone = files
      .filter((f) => f.filename === "src/a.ts")
      .map((f) => ({ ...f, status: "removed" as const }));
    const raised = new Set<string>();
    const outcome = await resolveFixed(host.threads!, { raised, newFiles: gone, hasReviewComments: true });
    expect(outcome).toEqual({ resolved: 1, failed: 0, fingerprints: [fingerprint] });
    expect((await host.threads!.list()).threads.map((t) => t.isResolved)).toEqual([true]);
    // Raised again by the new review: the same finding's thread stays open.
    await host.publisher!.publish(review(pullRequest.headSha, 3));
    const again = await resolveFixed(host.threads!, {
      raised: new Set([fingerprint]),
      newFiles: gone,
      hasReviewComments: true,
    });
    expect(again).toEqual({ resolved: 0, failed: 0, fingerprints: [] });
  });

  it("people: someone who may push writes; someone who may only read does not", async () => {
    await using host = make();
    expect(await host.people!.canWrite("dev")).toBe(true);
    expect(await host.people!.canWrite("guest")).toBe(false);
  });

  it("history: Loupe's texts read raw, its threads, and what changed since a commit", async () => {
    await using host = make();
    const pullRequest = await host.pullRequest();
    await host.changes(pullRequest);
    const history = host.history!;
    expect(await history.read()).toMatchObject({ comments: [], reviews: [] });
    await host.publisher!.publish(review(pullRequest.headSha, 4));
    const records = await history.read();
    expect(records.reviews).toHaveLength(1);
    expect(records.comments.map((c) => c.body)).toEqual([review(pullRequest.headSha, 4).comments[0]!.body]);
    expect((await host.threads!.list({ thumbsDown: true })).threads.map((t) => t.path)).toEqual(["src/a.ts"]);
    const since = await history.changedSince(pullRequest.baseSha, pullRequest.headSha);
    expect(since).toMatchObject({ status: "ahead", aheadBy: 2 });
    expect(since!.files.map((f) => f.filename)).toEqual([".github/loupe.yml", "src/a.ts"]);
  });
});

describe("an absent capability", () => {
  it("is an absent object on the local host, and the scope step reviews in full with no history", async () => {
    await using host = hostNamed("the local host")();
    expect([host.history, host.publisher, host.threads, host.people]).toEqual([
      undefined,
      undefined,
      undefined,
      undefined,
    ]);
    const config = parseRepoConfig(CONFIG);
    if (!config.ok) throw new Error("the fixture's configuration is valid");
    const step = await scopeStep({
      history: host.history,
      threads: host.threads,
      people: host.people,
      askedFull: false,
      config: config.config,
      headSha: repo.revParse("change"),
      mergeBaseSha: repo.revParse("main"),
    });
    expect(step.scope).toBeNull();
    expect(step.history.fingerprints.size).toBe(0);
  });

  it("is never invented: a local change has no number, page, title or author; GitHub's pull request has", async () => {
    await using local = hostNamed("the local host")();
    expect(await local.pullRequest()).toMatchObject({ number: null, url: null, title: null, author: null });
    await using github = hostNamed("the GitHub host")();
    const pullRequest = await github.pullRequest();
    expect(pullRequest.number).toEqual(expect.any(Number));
    expect([pullRequest.url, pullRequest.title]).toEqual([expect.any(String), expect.any(String)]);
    expect(pullRequest.author).toMatchObject({ login: expect.any(String), isBot: false });
  });

  it("leaves a reply nothing to answer in on the local host: skipped before any loop", async () => {
    await using host = hostNamed("the local host")();
    const asked: unknown[] = [];
    const replied = await replyInThread(
      host,
      { runReplyLoop: async (input) => Promise.reject(asked.push(input)), parseRepoConfig },
      { rootCommentId: 1, replyCommentId: 2, signal: new AbortController().signal, log: silent },
    );
    expect(replied).toEqual({ outcome: { kind: "skipped", reason: "no_threads" }, result: null });
    expect(asked).toEqual([]);
  });

  it("are on the GitHub host: threads listed with Loupe's login, answered at their end, resolved", async () => {
    await using host = hostNamed("the GitHub host")();
    const pullRequest = await host.pullRequest();
    await host.publisher!.publish({
      headSha: pullRequest.headSha,
      marker: "<!-- loupe:review head=y run=1 -->",
      body: "A review. <!-- loupe:review head=y run=1 -->",
      comments: [{ path: "src/a.ts", line: 1, body: "A finding." }],
      allInBody: () => "All in the body. <!-- loupe:review head=y run=1 -->",
    });
    const threads = host.threads!;
    const listed = await threads.list();
    expect(listed.self).toBe("loupe[bot]");
    const [thread] = listed.threads;
    expect(listed.threads).toHaveLength(1);
    expect([thread!.path, thread!.isResolved, thread!.comments.map((c) => c.body)]).toEqual([
      "src/a.ts",
      false,
      ["A finding."],
    ]);
    const rootCommentId = thread!.comments[0]!.databaseId!;
    expect(isBotComment(thread!.comments[0]!, listed.self)).toBe(true);
    await threads.reply({ rootCommentId, body: "An answer." });
    await threads.resolve(thread!.id);
    const after = (await threads.list()).threads[0]!;
    expect(after.comments.map((c) => c.body)).toEqual(["A finding.", "An answer."]);
    expect(after.isResolved).toBe(true);
    await expect(threads.reply({ rootCommentId: rootCommentId + 1_000, body: "Lost." })).rejects.toThrow();
  });

  it("is present on the GitHub host: raw history, publishing once, and Loupe's own texts recognised", async () => {
    await using host = hostNamed("the GitHub host")();
    const pullRequest = await host.pullRequest();
    expect(await host.history!.read()).toEqual({ self: "loupe[bot]", comments: [], reviews: [] });
    const review = {
      headSha: pullRequest.headSha,
      marker: "<!-- loupe:review head=x run=1 -->",
      body: "A review. <!-- loupe:review head=x run=1 -->",
      comments: [{ path: "src/a.ts", line: 1, body: "A comment." }],
      allInBody: () => "All in the body. <!-- loupe:review head=x run=1 -->",
    };
    const first = await host.publisher!.publish(review);
    expect(first).toMatchObject({ kind: "posted", allInBody: false });
    expect(await host.publisher!.publish(review)).toEqual({
      kind: "already_posted",
      reviewId: (first as { reviewId: number }).reviewId,
    });
    const records = await host.history!.read();
    expect(records.reviews.map((r) => r.author)).toEqual([{ login: "loupe[bot]", isBot: true }]);
    expect(records.comments.map((c) => c.body)).toEqual(["A comment."]);
  });
});

describe("the GitLab host's capabilities", () => {
  it("reads the 👎 on Loupe's threads only when asked: each costs a request of its own", async () => {
    await using host = hostNamed("the GitLab host")();
    const pullRequest = await host.pullRequest();
    await host.changes(pullRequest);
    await host.publisher!.publish({
      headSha: pullRequest.headSha,
      marker: "<!-- loupe:review head=z run=1 -->",
      body: "A review. <!-- loupe:review head=z run=1 -->",
      comments: [{ path: "src/a.ts", line: 1, body: "A finding." }],
      allInBody: () => "All in the body. <!-- loupe:review head=z run=1 -->",
    });
    const before = gitlab.requests.length;
    const awards = () => gitlab.requests.slice(before).filter((r) => r.url.includes("/award_emoji")).length;
    await host.threads!.list();
    expect(awards()).toBe(0);
    await host.threads!.list({ thumbsDown: true });
    expect(awards()).toBe(1);
  });

  it("has raw history, publishes once as one bulk publish, and recognises Loupe's own notes", async () => {
    await using host = hostNamed("the GitLab host")();
    const pullRequest = await host.pullRequest();
    await host.changes(pullRequest);
    expect(await host.history!.read()).toEqual({ self: gitlab.username, comments: [], reviews: [] });
    const review = {
      headSha: pullRequest.headSha,
      marker: "<!-- loupe:review head=y run=1 -->",
      body: "A review. <!-- loupe:review head=y run=1 -->",
      comments: [{ path: "src/a.ts", line: 1, body: "A comment." }],
      allInBody: () => "All in the body. <!-- loupe:review head=y run=1 -->",
    };
    const publishes = gitlab.publishes.length;
    const first = await host.publisher!.publish(review);
    expect(first).toMatchObject({ kind: "posted", allInBody: false });
    expect(await host.publisher!.publish(review)).toEqual({
      kind: "already_posted",
      reviewId: (first as { reviewId: number }).reviewId,
    });
    expect(gitlab.publishes.length).toBe(publishes + 1);
    const records = await host.history!.read();
    expect(records.reviews.map((r) => r.author)).toEqual([{ login: gitlab.username, isBot: true }]);
    expect(records.comments.map((c) => c.body)).toEqual(["A comment."]);
  });
});
