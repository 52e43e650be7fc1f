// Loupe as a GitHub Action, run as GitHub's runner runs it: the committed bundle in a child
// process with the event file, the token, the runner's variables and INPUT_* inputs, against the
// fake GitHub (REST, and git over a real `git http-backend` for the fetch of the head) and a
// scripted model. For each trigger it checks what GitHub would show: the review, the check run,
// the step's outputs and its summary — and that no secret reaches any of them.

import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import { parse } from "yaml";
import { CONNECTION_RETRY_WAITS_S } from "../../../src/action/unreachable-github.ts";
import { formatExternalId } from "../../../src/forges/github/external-id.ts";
import { type ActionRun, runActionEntry } from "../../support/action-runner.ts";
import { stopTurn, toolCallsTurn } from "../../support/chat-turns.ts";
import { type FakeGitHub, startFakeGitHub } from "../../support/fake-github.ts";
import { issueCommentEvent, pullRequestEvent } from "../../support/fake-github-payloads.ts";
import { type FixtureRepo, gitEnvironment } from "../../support/git-fixture.ts";
import { freePort } from "../../support/loupe-process.ts";
import { reviewDocumentProblems, sarifProblems } from "../../support/machine-checks.ts";
import { type ScriptedProvider, startScriptedProvider } from "../../support/scripted-provider.ts";
import { createValuesRepo, V10_TITLE, v10Review } from "../../support/values-repo.ts";

const API_KEY = `test-key-action-${process.pid}-${Date.now()}`;
const finalReview = v10Review();

let github: FakeGitHub;
let fixture: FixtureRepo;
const providers: ScriptedProvider[] = [];

const target = (repo = "values") => ({
  htmlBase: github.url,
  owner: "octo",
  repo,
  defaultBranch: "main",
  installationId: 1,
});

/** The model reads the file once, then answers with the review. */
async function scriptedModel(): Promise<ScriptedProvider> {
  const provider = await startScriptedProvider([
    {
      body: toolCallsTurn([
        { id: "call_1", name: "read_repository_file", arguments: { path: "src/values.ts" } },
      ]),
    },
    { body: stopTurn(finalReview) },
  ]);
  providers.push(provider);
  return provider;
}

/** A workflow's event: the payload GitHub sends, without the App installation a workflow never has. */
function workflowEvent(payload: Record<string, unknown>): Record<string, unknown> {
  const { installation: _installation, ...rest } = payload;
  return rest;
}

async function runAction(options: {
  readonly eventName: string;
  readonly payload: Record<string, unknown>;
  readonly token: string;
  readonly provider: ScriptedProvider;
  readonly inputs?: Record<string, string>;
  readonly workspace?: (dir: string) => void;
  readonly repo?: string;
}): Promise<ActionRun> {
  const run = await runActionEntry({
    eventName: options.eventName,
    payload: workflowEvent(options.payload),
    token: options.token,
    githubUrl: github.url,
    repository: `octo/${options.repo ?? "values"}`,
    inputs: {
      "openai-base-url": options.provider.baseURL,
      "openai-api-key": API_KEY,
      "review-model": "deepseek-v4-flash",
      "github-token": options.token,
      verify: "off",
      ...options.inputs,
    },
    ...(options.workspace ? { workspace: options.workspace } : {}),
  });
  for (const text of [run.stdout, run.stderr, run.summary, JSON.stringify(run.outputs)]) {
    expect(text).not.toContain(API_KEY);
    expect(text).not.toContain(options.token);
  }
  return run;
}

const reviewsOf = (number: number, repo = "values") =>
  github.reviews.filter((r) => r.repo === repo && r.pullNumber === number);
const checkRunsOf = (number: number, repo = "values") =>
  github.checkRuns.filter((r) => r.repo === repo && r.externalId === formatExternalId(number));

/** A clone of the fixture in the workspace at `revision`, as actions/checkout would leave it. */
const checkout = (revision: string) => (dir: string) => {
  const env = gitEnvironment(fixture.home);
  execFileSync("git", ["clone", "--quiet", fixture.dir, dir], { env });
  execFileSync("git", ["-c", "advice.detachedHead=false", "checkout", "--quiet", revision], {
    cwd: dir,
    env,
  });
};

beforeAll(async () => {
  fixture = createValuesRepo();
  github = await startFakeGitHub();
  github.addRepository({
    owner: "octo",
    repo: "values",
    source: fixture,
    collaborators: { maintainer: "maintain", visitor: "read" },
  });
  github.addRepository({
    owner: "octo",
    repo: "gated",
    source: fixture,
    config: "fail_on: medium\n",
    configPath: "ci/loupe.yml",
  });
}, 60_000);

afterAll(async () => {
  for (const provider of providers) await provider.stop();
  await github?.stop();
  fixture?.dispose();
});

describe("Loupe's GitHub Action, run as the runner runs it", () => {
  it("reviews a same-repository pull request: review, check run, outputs and summary", async () => {
    const pr = github.addPullRequest({ owner: "octo", repo: "values", number: 1, headRef: "change-v10" });
    const provider = await scriptedModel();
    const run = await runAction({
      eventName: "pull_request",
      payload: pullRequestEvent("opened", target(), pr),
      token: github.workflowToken("octo", "values"),
      provider,
    });
    expect(run.code).toBe(0);
    const [review, ...others] = reviewsOf(1);
    expect(others).toHaveLength(0);
    expect(review?.commitId).toBe(pr.headSha);
    expect(review?.comments).toEqual([expect.objectContaining({ path: "src/values.ts", line: 10 })]);
    const [checkRun] = checkRunsOf(1);
    const last = checkRun?.history.at(-1);
    expect(last).toMatchObject({ status: "completed", conclusion: "success" });
    expect(last?.output?.summary).toContain("final_review");
    expect(run.outputs).toEqual({
      "termination-reason": "final_review",
      findings: "1",
      tokens: "330",
      cost: "",
      "result-file": expect.stringMatching(/loupe-review\.json$/),
      "sarif-file": "",
    });
    expect(run.summary).toContain("`final_review`");
    expect(run.summary).toContain(V10_TITLE);
    expect(run.summary).toContain("330");
    // Posted: the summary says so, not GitHub's 422 fallback ("did not accept the inline comments").
    expect(run.summary).toContain("Posted on the pull request (1 inline); the 1 finding is listed here.");
    expect(run.summary).not.toContain("did not accept");
    // The head was fetched over git's smart HTTP with the workflow's token.
    expect(github.gitRequests.some((r) => r.url.includes("git-upload-pack"))).toBe(true);
    expect(provider.remaining()).toBe(0);
    // The 404 of an absent .github/loupe.yml is expected: nothing in the log calls it a problem.
    expect(github.requests.some((r) => r.url.includes("loupe.yml") && r.status === 404)).toBe(true);
    expect(`${run.stdout}${run.stderr}`).not.toMatch(/ - 404 /);
  }, 60_000);

  it("reviews a fork's pull request under pull_request_target beside a checkout of the base, and fails on fail-on", async () => {
    const pr = github.addPullRequest({ owner: "octo", repo: "values", number: 2, headRef: "change-v10" });
    const payload = pullRequestEvent("opened", target(), pr);
    payload.pull_request.head.repo = {
      ...payload.pull_request.head.repo,
      full_name: "forker/values",
      fork: true,
      owner: { ...payload.pull_request.head.repo.owner, login: "forker" },
    };
    payload.pull_request.head.label = "forker:change-v10";
    const provider = await scriptedModel();
    const run = await runAction({
      eventName: "pull_request_target",
      payload,
      token: github.workflowToken("octo", "values"),
      provider,
      inputs: { "fail-on": "medium" },
      workspace: checkout("main"),
    });
    expect(run.code).toBe(1);
    expect(run.stdout).toContain("::error::A finding reached the `fail-on` severity (medium).");
    expect(reviewsOf(2)).toHaveLength(1);
    expect(reviewsOf(2)[0]?.comments).toHaveLength(1);
    expect(checkRunsOf(2)[0]?.history.at(-1)).toMatchObject({ status: "completed", conclusion: "failure" });
    expect(run.outputs["termination-reason"]).toBe("final_review");
    // The checkout guard's lookups that GitHub answers 404 are expected, not logged as problems.
    expect(`${run.stdout}${run.stderr}`).not.toMatch(/ - 404 /);
  }, 60_000);

  it("writes the review to the step summary when the token is read-only (a fork's pull_request)", async () => {
    const pr = github.addPullRequest({ owner: "octo", repo: "values", number: 3, headRef: "change-v10" });
    const provider = await scriptedModel();
    const run = await runAction({
      eventName: "pull_request",
      payload: pullRequestEvent("opened", target(), pr),
      token: github.workflowToken("octo", "values", { readOnly: true }),
      provider,
    });
    expect(run.code).toBe(0);
    expect(reviewsOf(3)).toHaveLength(0);
    expect(checkRunsOf(3)).toHaveLength(0);
    expect(run.summary).toContain("may not create check runs");
    expect(run.summary).toContain("`pull_request_target`");
    expect(run.summary).toContain("pull-requests: write");
    expect(run.stdout).toContain("pull-requests: write");
    expect(run.summary).toContain("### The review (not posted)");
    expect(run.summary).toContain("Not posted: the 1 finding is listed here.");
    expect(run.summary).toContain(V10_TITLE);
    expect(run.summary).toContain("`final_review`");
    expect(run.outputs).toEqual({
      "termination-reason": "final_review",
      findings: "1",
      tokens: "330",
      cost: "",
      "result-file": expect.stringMatching(/loupe-review\.json$/),
      "sarif-file": "",
    });
  }, 60_000);

  it("says how to get inline comments, in the log and the summary, when the token may write check runs but not the review", async () => {
    const pr = github.addPullRequest({ owner: "octo", repo: "values", number: 17, headRef: "change-v10" });
    const provider = await scriptedModel();
    const run = await runAction({
      eventName: "pull_request",
      payload: pullRequestEvent("opened", target(), pr),
      token: github.workflowToken("octo", "values", { checksOnly: true }),
      provider,
    });
    expect(run.code).toBe(0);
    expect(reviewsOf(17)).toHaveLength(0);
    expect(checkRunsOf(17)[0]?.history.at(-1)).toMatchObject({ status: "completed" });
    expect(checkRunsOf(17)[0]?.history.at(-1)?.output?.summary).toContain("pull-requests: write");
    for (const text of [run.stdout, run.summary]) {
      expect(text).toContain("pull-requests: write");
      expect(text).toContain("checks: write");
      expect(text).toContain("`pull_request_target`");
      expect(text).toContain("docs/github-action.md");
    }
    expect(run.summary).toContain("### The review (not posted)");
    expect(run.summary).toContain(V10_TITLE);
  }, 60_000);

  it("skips a stranger's pull request, saying the command needs the comment-trigger workflow", async () => {
    const pr = github.addPullRequest({ owner: "octo", repo: "values", number: 18, headRef: "change-v10" });
    const provider = await scriptedModel();
    const opened = pullRequestEvent("opened", target(), pr);
    opened.pull_request.user.login = "stranger";
    opened.pull_request.author_association = "FIRST_TIME_CONTRIBUTOR";
    const run = await runAction({
      eventName: "pull_request",
      payload: opened,
      token: github.workflowToken("octo", "values"),
      provider,
    });
    expect(run.code).toBe(0);
    expect(provider.requests).toHaveLength(0);
    const summary = checkRunsOf(18)[0]?.history.at(-1)?.output?.summary ?? "";
    for (const text of [summary, run.summary]) {
      expect(text).toContain("with a comment `@loupe review`");
      expect(text).toContain("`issue_comment`");
      expect(text).toContain("docs/github-action.md");
    }
  }, 60_000);

  it("reviews on `@loupe review` from a writer", async () => {
    const pr = github.addPullRequest({ owner: "octo", repo: "values", number: 4, headRef: "change-v10" });
    const payload = issueCommentEvent(target(), pr, 501, "@loupe review");
    payload.comment.user = { ...payload.comment.user, login: "maintainer", type: "User" };
    const provider = await scriptedModel();
    const run = await runAction({
      eventName: "issue_comment",
      payload,
      token: github.workflowToken("octo", "values"),
      provider,
    });
    expect(run.code).toBe(0);
    expect(reviewsOf(4)).toHaveLength(1);
    expect(reviewsOf(4)[0]?.commitId).toBe(pr.headSha);
    expect(checkRunsOf(4)[0]?.history.at(-1)).toMatchObject({ status: "completed", conclusion: "success" });
    expect(run.outputs["termination-reason"]).toBe("final_review");
    expect(run.summary).toContain(V10_TITLE);
    expect(github.requests.some((r) => r.url.includes("/collaborators/maintainer/permission"))).toBe(true);
    expect(github.reactions).toContainEqual({
      owner: "octo",
      repo: "values",
      commentId: 501,
      content: "eyes",
    });
  }, 60_000);

  it("does nothing on `@loupe review` from someone who cannot write", async () => {
    const pr = github.addPullRequest({ owner: "octo", repo: "values", number: 5, headRef: "change-v10" });
    const payload = issueCommentEvent(target(), pr, 502, "@loupe review");
    payload.comment.user = { ...payload.comment.user, login: "visitor", type: "User" };
    const provider = await scriptedModel();
    const run = await runAction({
      eventName: "issue_comment",
      payload,
      token: github.workflowToken("octo", "values"),
      provider,
    });
    expect(run.code).toBe(0);
    expect(reviewsOf(5)).toHaveLength(0);
    expect(checkRunsOf(5)).toHaveLength(0);
    expect(provider.requests).toHaveLength(0);
    expect(run.summary).toContain("@visitor may not ask for a review");
    expect(github.reactions.filter((r) => r.commentId === 502)).toHaveLength(0);
    expect(run.outputs).toEqual({ "termination-reason": "", findings: "0", tokens: "0", cost: "" });
  }, 60_000);

  it("refuses to run beside a checkout of the pull request's head", async () => {
    const pr = github.addPullRequest({ owner: "octo", repo: "values", number: 6, headRef: "change-v10" });
    const provider = await scriptedModel();
    const run = await runAction({
      eventName: "pull_request_target",
      payload: pullRequestEvent("opened", target(), pr),
      token: github.workflowToken("octo", "values"),
      provider,
      workspace: checkout(pr.headSha),
    });
    expect(run.code).toBe(1);
    expect(run.stdout).toContain("::error::GITHUB_WORKSPACE holds a checkout of the pull request's head");
    expect(run.summary).toContain("Not reviewed.");
    expect(reviewsOf(6)).toHaveLength(0);
    expect(checkRunsOf(6)).toHaveLength(0);
    expect(provider.requests).toHaveLength(0);
  }, 60_000);

  it("refuses to run beside the head's files committed anew in RUNNER_TEMP, told by the tree GitHub names", async () => {
    const pr = github.addPullRequest({ owner: "octo", repo: "values", number: 16, headRef: "change-v10" });
    const provider = await scriptedModel();
    // Outside the workspace, a repository that never had the head commit: only its tree is the head's.
    const copyOfHead = (workspace: string) => {
      const dir = path.join(path.dirname(workspace), "copy", "of-head");
      fs.mkdirSync(dir, { recursive: true });
      const env = gitEnvironment(fixture.home);
      const archive = execFileSync("git", ["archive", pr.headSha], { cwd: fixture.dir, env });
      execFileSync("tar", ["-x", "-C", dir], { input: archive });
      for (const args of [
        ["init", "--quiet"],
        ["add", "-A"],
        [
          "-c",
          "user.name=Someone",
          "-c",
          "user.email=someone@example.test",
          "commit",
          "--quiet",
          "-m",
          "copied",
        ],
      ])
        execFileSync("git", args, { cwd: dir, env });
    };
    const run = await runAction({
      eventName: "pull_request_target",
      payload: pullRequestEvent("opened", target(), pr),
      token: github.workflowToken("octo", "values"),
      provider,
      workspace: copyOfHead,
    });
    expect(run.code).toBe(1);
    expect(run.stdout).toContain(
      "::error::RUNNER_TEMP/copy/of-head holds a checkout of the pull request's files (the head's tree under commit",
    );
    expect(reviewsOf(16)).toHaveLength(0);
    expect(provider.requests).toHaveLength(0);
  }, 60_000);

  it("reads the configuration at the `config` path on the default branch, and fails on its fail_on", async () => {
    const pr = github.addPullRequest({ owner: "octo", repo: "gated", number: 7, headRef: "change-v10" });
    const provider = await scriptedModel();
    const run = await runAction({
      eventName: "pull_request",
      payload: pullRequestEvent("opened", target("gated"), pr),
      token: github.workflowToken("octo", "gated"),
      provider,
      inputs: { config: "ci/loupe.yml" },
      repo: "gated",
    });
    expect(run.code).toBe(1);
    expect(run.stdout).toContain("::error::A finding reached this repository's `fail_on` severity.");
    expect(reviewsOf(7, "gated")).toHaveLength(1);
    expect(checkRunsOf(7, "gated")[0]?.history.at(-1)).toMatchObject({
      status: "completed",
      conclusion: "failure",
    });
    expect(
      github.requests.some(
        (r) => r.url.includes("/contents/ci%2Floupe.yml") || r.url.includes("/contents/ci/loupe.yml"),
      ),
    ).toBe(true);
  }, 60_000);

  it("posts the review without a check run when the token may not write checks", async () => {
    const pr = github.addPullRequest({ owner: "octo", repo: "values", number: 8, headRef: "change-v10" });
    const provider = await scriptedModel();
    const run = await runAction({
      eventName: "pull_request",
      payload: pullRequestEvent("opened", target(), pr),
      token: github.workflowToken("octo", "values", { noChecks: true }),
      provider,
    });
    expect(run.code).toBe(0);
    expect(reviewsOf(8)).toHaveLength(1);
    expect(checkRunsOf(8)).toHaveLength(0);
    expect(run.summary).toContain("may not create check runs");
    expect(run.summary).toContain("`final_review`");
    expect(run.summary).not.toContain("(not posted)");
  }, 60_000);

  it("ends a review the provider cannot give with a warning and a neutral check run, never a failed job", async () => {
    const pr = github.addPullRequest({ owner: "octo", repo: "values", number: 9, headRef: "change-v10" });
    const provider = await startScriptedProvider([
      { fault: "empty_500" },
      { fault: "empty_500" },
      { fault: "empty_500" },
    ]);
    providers.push(provider);
    const run = await runAction({
      eventName: "pull_request",
      payload: pullRequestEvent("opened", target(), pr),
      token: github.workflowToken("octo", "values"),
      provider,
      inputs: { "fail-on": "info" },
    });
    expect(run.code).toBe(0);
    expect(run.stdout).toContain("::warning::Loupe: review incomplete (provider_unavailable)");
    expect(reviewsOf(9)).toHaveLength(0);
    expect(checkRunsOf(9)[0]?.history.at(-1)).toMatchObject({ status: "completed", conclusion: "neutral" });
    expect(run.outputs["termination-reason"]).toBe("provider_unavailable");
    expect(run.summary).toContain("`provider_unavailable`");
    // Its texts name the action's inputs, never the App's environment variables.
    const output = checkRunsOf(9)[0]?.history.at(-1)?.output;
    expect(output?.summary).toContain("Cost: unknown (no prices set: price-input, price-output)");
    for (const text of [output?.summary, output?.text, run.summary, run.stdout])
      expect(text ?? "").not.toMatch(/\b(?:OPENAI|REVIEW)_[A-Z_]+/);
  }, 60_000);
  it("runs the code-scanning workflow of docs/github-action.md: SARIF and the agents' JSON validate", async () => {
    const doc = fs.readFileSync(path.resolve(import.meta.dirname, "../../../docs/github-action.md"), "utf8");
    const yaml = doc.split("<!-- the workflow below is run by test/e2e/action/github-action.test.ts -->")[1];
    const workflow = parse(/```yaml\n([\s\S]*?)```/.exec(yaml ?? "")![1]!) as {
      jobs: { review: { steps: { id?: string; uses: string; with: Record<string, string> }[] } };
    };
    const [loupe, upload] = workflow.jobs.review.steps;
    expect(upload!.uses).toMatch(/^github\/codeql-action\/upload-sarif@/);
    // The upload step reads the file the Loupe step's output names.
    expect(upload!.with.sarif_file).toBe(`\${{ steps.${loupe!.id}.outputs.sarif-file }}`);
    const pr = github.addPullRequest({ owner: "octo", repo: "values", number: 10, headRef: "change-v10" });
    const provider = await scriptedModel();
    const inputs = Object.fromEntries(
      Object.entries(loupe!.with).filter(([, value]) => !String(value).includes("${{")),
    );
    const run = await runAction({
      eventName: "pull_request",
      payload: pullRequestEvent("opened", target(), pr),
      token: github.workflowToken("octo", "values"),
      provider,
      inputs: { ...inputs, "openai-base-url": provider.baseURL, "review-model": "deepseek-v4-flash" },
    });
    expect(run.code).toBe(0);
    expect(run.outputs["sarif-file"]).toMatch(/[/\\]workspace[/\\]loupe\.sarif$/);
    const sarif = run.files["sarif-file"]!;
    expect(sarifProblems(sarif)).toEqual([]);
    const result = JSON.parse(sarif).runs[0].results[0];
    expect(result.locations[0].physicalLocation.artifactLocation.uri).toBe("src/values.ts");
    expect(result.properties["loupe/status"]).toBe("new");
    const json = JSON.parse(run.files["result-file"]!);
    expect(reviewDocumentProblems(json)).toEqual([]);
    expect(json.outcome).toMatchObject({
      kind: "reviewed",
      completed: true,
      termination_reason: "final_review",
    });
    expect(json.findings).toHaveLength(1);
    expect(json.ledger).toMatchObject({ new: 1 });
  }, 60_000);

  it("gives up soon on a GitHub it cannot connect to, logging every attempt, and says what to check", async () => {
    const closed = `http://127.0.0.1:${await freePort()}`;
    const api = `${closed}/api/v3`;
    const pr = github.addPullRequest({ owner: "octo", repo: "values", number: 13, headRef: "change-v10" });
    const provider = await scriptedModel();
    const payload = workflowEvent(pullRequestEvent("opened", { ...target(), htmlBase: closed }, pr));
    const started = Date.now();
    const run = await runActionEntry({
      eventName: "pull_request",
      payload,
      token: "ghs_unreachable",
      githubUrl: closed,
      repository: "octo/values",
      inputs: {
        "openai-base-url": provider.baseURL,
        "openai-api-key": API_KEY,
        "review-model": "deepseek-v4-flash",
        verify: "off",
      },
      killAfterMs: 120_000,
    });
    const elapsed = Date.now() - started;
    const log = run.stdout.split("\n").filter((line) => line !== "");
    const repo = `${api}/repos/octo/values`;
    // The first request (the checkout guard's look-up of the head) gets its three attempts, each
    // on a line that says when the next one comes; after it, every request has its one attempt.
    const tries = log.filter((line) => line.startsWith("loupe: GitHub did not answer"));
    expect(tries).toEqual([
      `loupe: GitHub did not answer GET ${repo}/git/commits/${pr.headSha} (connection refused), attempt 1 of 3; trying again in ${CONNECTION_RETRY_WAITS_S[0]} s`,
      `loupe: GitHub did not answer GET ${repo}/git/commits/${pr.headSha} (connection refused), attempt 2 of 3; trying again in ${CONNECTION_RETRY_WAITS_S[1]} s`,
      `loupe: GitHub did not answer GET ${repo}/git/commits/${pr.headSha} (connection refused), attempt 3 of 3; not trying again`,
      `loupe: GitHub did not answer POST ${repo}/check-runs (connection refused), one attempt; not trying again`,
      `loupe: GitHub did not answer GET ${repo}/contents/.github%2Floupe.yml (connection refused), one attempt; not trying again`,
    ]);
    // Octokit's own "500 with id UNKNOWN" lines for answers that never came are not repeated.
    expect(log.filter((line) => / - 500 with id UNKNOWN /.test(line))).toEqual([]);
    // It ends with one message: GitHub's URL and what to check, the job green (Loupe's own trouble).
    const said = `Loupe could not reach GitHub's API at ${api} (connection refused). Check that this runner can reach it`;
    expect(log.at(-1)).toEqual(expect.stringContaining(`::warning::Review not completed: ${said}`));
    expect(log.at(-1)).toContain("GITHUB_API_URL");
    expect(run.summary).toContain(said);
    expect([run.code, run.killed, run.outputs["termination-reason"]]).toEqual([0, false, ""]);
    expect(provider.requests).toHaveLength(0);
    // Generous against the 6 s of waits configured: the 91 s of Octokit's own schedule is far above.
    const waited = CONNECTION_RETRY_WAITS_S.reduce((a, b) => a + b, 0) * 1000;
    expect(elapsed).toBeLessThan(waited * 5);
  }, 150_000);

  it("fails the job on an incomplete review with fail-on-incomplete: true", async () => {
    const pr = github.addPullRequest({ owner: "octo", repo: "values", number: 12, headRef: "change-v10" });
    const provider = await startScriptedProvider([
      { fault: "empty_500" },
      { fault: "empty_500" },
      { fault: "empty_500" },
    ]);
    providers.push(provider);
    const run = await runAction({
      eventName: "pull_request",
      payload: pullRequestEvent("opened", target(), pr),
      token: github.workflowToken("octo", "values"),
      provider,
      inputs: { "fail-on-incomplete": "true" },
    });
    expect(run.code).toBe(1);
    expect(run.stdout).toContain("::error::Loupe: review incomplete (provider_unavailable)");
    expect(checkRunsOf(12)[0]?.history.at(-1)).toMatchObject({ conclusion: "neutral" });
  }, 60_000);
});
