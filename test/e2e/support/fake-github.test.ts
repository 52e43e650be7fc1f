// The fake GitHub behaves like GitHub where Loupe depends on it: App JWT → installation token,
// three-dot compare with GitHub-shaped hunks, all-or-nothing review validation with GitHub's 422
// body, check-run limits, config reads, and git over smart HTTP only with the token. Driven with
// Probot's own Octokit (the client the App uses), not with hand-written requests.

import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import { Probot, ProbotOctokit } from "probot";
import { type FakeGitHub, startFakeGitHub } from "../../support/fake-github.ts";
import { generateAppKey } from "../../support/fake-github-auth.ts";
import { createRepo, type FixtureRepo, runGitAsync } from "../../support/git-fixture.ts";

const Octokit = ProbotOctokit.defaults((options: Record<string, unknown>) => ({
  ...options,
  retry: { enabled: false },
  throttle: { enabled: false },
}));

const lines = (n: number, label: string) =>
  Array.from({ length: n }, (_, i) => `${label} ${i + 1}`).join("\n");

let github: FakeGitHub;
let fixture: FixtureRepo;
let base: string;

function appOctokit(privateKey: string) {
  const probot = new Probot({ appId: github.appId, privateKey, baseUrl: `${github.url}/api/v3`, Octokit });
  return probot.auth(1);
}

async function status(promise: Promise<unknown>): Promise<{ status: number; message: string }> {
  try {
    await promise;
    return { status: 200, message: "" };
  } catch (error) {
    const e = error as { status: number; response?: { data?: unknown } };
    return { status: e.status, message: JSON.stringify(e.response?.data) };
  }
}

beforeAll(async () => {
  fixture = createRepo();
  fixture.write("src/app.ts", `${lines(30, "line")}\n`);
  fixture.write("old.txt", "going away\n");
  fixture.write("moved-from.txt", `${lines(10, "stable")}\n`);
  base = fixture.commit("base");
  fixture.branch("feature");
  fixture.write(
    "src/app.ts",
    `${lines(30, "line").replace("line 10\n", "line ten\n").replace("line 25\n", "line 25\nadded\n")}\n`,
  );
  fixture.remove("old.txt");
  fixture.remove("moved-from.txt");
  fixture.write("moved-to.txt", `${lines(10, "stable")}\n`);
  fixture.write("new.ts", "export const fresh = 1;\n");
  fixture.commit("feature");
  fixture.checkout("main");
  fixture.write("main-only.txt", "on main after the branch point\n");
  fixture.commit("main moves on");
  github = await startFakeGitHub();
  github.addRepository({ owner: "octo", repo: "app", source: fixture, config: "max_rounds: 3\n" });
  github.addPullRequest({ owner: "octo", repo: "app", number: 7, headRef: "feature", title: "Feature" });
});

afterAll(async () => {
  await github.stop();
  fixture.dispose();
});

describe("fake GitHub", () => {
  it("trades only a JWT signed with the App's key for an installation token", async () => {
    const stranger = await appOctokit(generateAppKey().privateKey);
    expect(
      await status(stranger.rest.pulls.get({ owner: "octo", repo: "app", pull_number: 7 })),
    ).toMatchObject({
      status: 401,
      message: expect.stringContaining("JSON web token could not be decoded"),
    });
    const app = await appOctokit(github.privateKey);
    const { data } = await app.rest.pulls.get({ owner: "octo", repo: "app", pull_number: 7 });
    expect(data.head.sha).toBe(fixture.revParse("feature"));
    expect(github.issuedTokens).toHaveLength(1);
    const last = github.requests[github.requests.length - 1]!;
    expect(last.headers.authorization).toBe(`token ${github.issuedTokens[0]}`);
  });

  it("compares three-dot from the merge base, with GitHub-shaped patches", async () => {
    const app = await appOctokit(github.privateKey);
    const { data } = await app.rest.repos.compareCommitsWithBasehead({
      owner: "octo",
      repo: "app",
      basehead: `main...${fixture.revParse("feature")}`,
    });
    expect(data.merge_base_commit.sha).toBe(base);
    const byName = Object.fromEntries(data.files!.map((f) => [f.filename, f]));
    expect(Object.keys(byName).sort()).toEqual(["moved-to.txt", "new.ts", "old.txt", "src/app.ts"]);
    expect(byName["moved-to.txt"]).toMatchObject({ status: "renamed", previous_filename: "moved-from.txt" });
    expect(byName["old.txt"]).toMatchObject({ status: "removed", deletions: 1, additions: 0 });
    expect(byName["new.ts"]).toMatchObject({
      status: "added",
      patch: "@@ -0,0 +1 @@\n+export const fresh = 1;",
    });
    const patch = byName["src/app.ts"]!.patch!;
    expect(patch.split("\n")[0]).toBe("@@ -7,7 +7,7 @@ line 6");
    expect(patch).toContain("\n-line 10\n+line ten\n");
    expect(byName["src/app.ts"]).toMatchObject({
      additions: 2,
      deletions: 1,
      changes: 3,
      status: "modified",
    });
  });

  it("rejects a whole review when one comment is outside the diff, with GitHub's body", async () => {
    const app = await appOctokit(github.privateKey);
    const review = (comments: { path: string; line: number; start_line?: number }[]) =>
      app.rest.pulls.createReview({
        owner: "octo",
        repo: "app",
        pull_number: 7,
        event: "COMMENT",
        body: "x",
        comments: comments.map((c) => ({ ...c, body: "finding" })),
      });
    const outside = await status(
      review([
        { path: "src/app.ts", line: 10 },
        { path: "src/app.ts", line: 18 },
      ]),
    );
    expect(outside.status).toBe(422);
    expect(JSON.parse(outside.message)).toEqual({
      message: "Unprocessable Entity",
      errors: [
        "Pull request review thread line must be part of the diff and Pull request review thread diff hunk can't be blank",
      ],
      documentation_url: "https://docs.github.com/rest/pulls/reviews#create-a-review-for-a-pull-request",
      status: "422",
    });
    const crossHunk = await status(review([{ path: "src/app.ts", start_line: 10, line: 26 }]));
    expect(crossHunk.message).toContain("start line must be part of the same hunk as the line.");
    expect((await status(review([{ path: "main-only.txt", line: 1 }]))).message).toContain("path is invalid");
    expect(github.reviews).toHaveLength(0);
    expect((await status(review([{ path: "src/app.ts", start_line: 8, line: 13 }]))).status).toBe(200);
    expect(github.reviews[0]!.comments[0]).toMatchObject({ path: "src/app.ts", line: 13, start_line: 8 });
    const listed = await app.rest.pulls.listReviewComments({ owner: "octo", repo: "app", pull_number: 7 });
    expect(listed.data.map((c) => c.line)).toEqual([13]);
  });

  it("enforces check-run limits and keeps the run's history", async () => {
    const app = await appOctokit(github.privateKey);
    const head_sha = fixture.revParse("feature");
    const { data: run } = await app.rest.checks.create({
      owner: "octo",
      repo: "app",
      name: "Loupe",
      head_sha,
      status: "in_progress",
      external_id: "7",
    });
    const update = (fields: Record<string, unknown>) =>
      status(app.rest.checks.update({ owner: "octo", repo: "app", check_run_id: run.id, ...fields }));
    const output = { title: "t", summary: "s" };
    expect((await update({ status: "completed", output })).message).toContain(
      '\\"conclusion\\" wasn\'t supplied',
    );
    expect((await update({ output: { title: "t", summary: "x".repeat(65536) } })).status).toBe(422);
    const action = { label: "Re-run", description: "Review again", identifier: "rerun" };
    expect((await update({ actions: [action, action, action, action] })).status).toBe(422);
    expect((await update({ actions: [{ ...action, label: "x".repeat(21) }] })).status).toBe(422);
    expect(
      (await update({ conclusion: "success", output: { title: "t", summary: "x".repeat(65535) } })).status,
    ).toBe(200);
    const stored = github.checkRuns.find((r) => r.id === run.id)!;
    expect(stored.history.map((s) => s.status)).toEqual(["in_progress", "completed"]);
    expect(stored.externalId).toBe("7");
  });

  it("serves .github/loupe.yml to Probot's config reader and git only with the token", async () => {
    const app = await appOctokit(github.privateKey);
    const { config } = await app.config.get({ owner: "octo", repo: "app", path: ".github/loupe.yml" });
    expect(config).toEqual({ max_rounds: 3 });
    const remote = `${github.url}/octo/app.git`;
    await expect(
      runGitAsync(["ls-remote", remote], { cwd: fixture.dir, home: fixture.home }),
    ).rejects.toThrow();
    const header = `Authorization: Basic ${Buffer.from(`x-access-token:${github.issuedTokens[0]}`).toString("base64")}`;
    const refs = await runGitAsync(["-c", `http.extraHeader=${header}`, "ls-remote", remote], {
      cwd: fixture.dir,
      home: fixture.home,
    });
    expect(refs).toContain(`${fixture.revParse("feature")}\trefs/pull/7/head`);
  });
});
