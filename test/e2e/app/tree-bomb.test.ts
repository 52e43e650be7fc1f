// A tree bomb through the two entries that run the review without a repository worker: `loupe
// review` on a clone URL and the bundled GitHub Action. The head's tree is a handful of real git
// objects that expand to 10^9 paths, served by a real `git http-backend`. The walk of the tree
// stops at its bound (workspace/snapshot-bounds.ts) and the review ends as the skip
// `repository_too_large`: no model request, before the deadline the test sets (the review's
// REVIEW_TIMEOUT_MS; past it the child is killed and the test fails), and with the process's peak
// resident memory bounded — measured by the child itself (report-peak-rss.mjs), judged against a
// bound with a wide margin: the walk unbounded passed 1.3 GB and kept climbing.

import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import { runActionEntry } from "../../support/action-runner.ts";
import { type FakeGitHub, startFakeGitHub } from "../../support/fake-github.ts";
import { fakeGitHubTarget, pullRequestEvent } from "../../support/fake-github-payloads.ts";
import { type GitHttpServer, startGitHttpServer } from "../../support/git-http-server.ts";
import { publishRepository } from "../../support/git-server-repos.ts";
import { PROJECT_ROOT } from "../../support/loupe-process.ts";
import { type ScriptedProvider, startScriptedProvider } from "../../support/scripted-provider.ts";
import { createTreeBombRepo, type TreeBombRepo } from "../../support/tree-bomb-repo.ts";

const API_KEY = `test-key-bomb-${process.pid}-${Date.now()}`;
/** The review's deadline the test sets: the child must end by itself before it. */
const REVIEW_TIMEOUT_MS = 120_000;
/** Peak resident memory allowed, in KiB: about three times what the bounded walk was measured at. */
const PEAK_RSS_BOUND_KIB = 1024 * 1024;
const PRELOAD = path.join(PROJECT_ROOT, "test", "support", "report-peak-rss.mjs");

let bomb: TreeBombRepo;
let git: GitHttpServer;
let github: FakeGitHub;
let provider: ScriptedProvider;
let scratch: string;

beforeAll(async () => {
  bomb = createTreeBombRepo();
  expect(bomb.paths).toBeGreaterThan(1_000_000_000);
  git = await startGitHttpServer();
  publishRepository(git.root, "octo/bomb", bomb.repo);
  github = await startFakeGitHub();
  github.addRepository({ owner: "octo", repo: "bomb", source: bomb.repo });
  // No turn: any request to the model fails the review, and shows in `requests`.
  provider = await startScriptedProvider([]);
  scratch = fs.mkdtempSync(path.join(os.tmpdir(), "loupe-bomb-"));
}, 60_000);

afterAll(async () => {
  await provider?.stop();
  await github?.stop();
  await git?.stop();
  bomb?.repo.dispose();
  if (scratch !== undefined) fs.rmSync(scratch, { recursive: true, force: true });
});

/** The peak RSS the child reported (KiB), and a fresh file for the next. */
function peakRss(file: string): number {
  const kib = Number(fs.readFileSync(file, "utf8"));
  fs.rmSync(file);
  return kib;
}

describe("a tree bomb of 10^9 paths", () => {
  it(
    "ends `loupe review` on a clone URL as repository_too_large, with no model request and bounded memory",
    async () => {
      const rssFile = path.join(scratch, "cli-rss");
      const child = spawn(
        path.join(PROJECT_ROOT, "node_modules/.bin/node"),
        [
          "src/cli.ts",
          "review",
          "--repo",
          git.url("octo/bomb"),
          "--base",
          bomb.baseSha,
          "--head",
          bomb.headSha,
        ],
        {
          cwd: PROJECT_ROOT,
          env: {
            PATH: process.env.PATH ?? "",
            HOME: scratch,
            NODE_OPTIONS: `--import=${PRELOAD}`,
            PEAK_RSS_FILE: rssFile,
            OPENAI_BASE_URL: provider.baseURL,
            OPENAI_API_KEY: API_KEY,
            REVIEW_MODEL: "deepseek-v4-flash",
            REVIEW_TIMEOUT_MS: String(REVIEW_TIMEOUT_MS),
          },
          stdio: ["ignore", "pipe", "pipe"],
        },
      );
      let stdout = "";
      let stderr = "";
      child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString("utf8")));
      child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString("utf8")));
      let killed = false;
      const deadline = setTimeout(() => {
        killed = true;
        child.kill("SIGKILL");
      }, REVIEW_TIMEOUT_MS);
      const code = await new Promise<number | null>((resolve) => child.on("close", resolve));
      clearTimeout(deadline);
      expect({ killed, stderr }).toEqual({ killed: false, stderr: "" });
      expect(code).toBe(0);
      const outcome = JSON.parse(stdout).outcome;
      expect(outcome).toMatchObject({ kind: "skipped", skip_reason: "repository_too_large", tokens: 0 });
      expect(outcome.explanation).toContain(`${bomb.headSha} lists more than 1000000 paths`);
      expect(provider.requests).toHaveLength(0);
      expect(peakRss(rssFile)).toBeLessThan(PEAK_RSS_BOUND_KIB);
    },
    REVIEW_TIMEOUT_MS + 30_000,
  );

  it(
    "counts the review's time from before its first git read: a deadline shorter than the walk ends it",
    async () => {
      const child = spawn(
        path.join(PROJECT_ROOT, "node_modules/.bin/node"),
        ["src/cli.ts", "review", "--repo", bomb.repo.dir, "--base", bomb.baseSha, "--head", bomb.headSha],
        {
          cwd: PROJECT_ROOT,
          env: {
            PATH: process.env.PATH ?? "",
            HOME: scratch,
            OPENAI_BASE_URL: provider.baseURL,
            OPENAI_API_KEY: API_KEY,
            REVIEW_MODEL: "deepseek-v4-flash",
            // Far shorter than the bounded walk of the bomb takes: only the deadline can end it so.
            REVIEW_TIMEOUT_MS: "200",
          },
          stdio: ["ignore", "pipe", "pipe"],
        },
      );
      let stderr = "";
      child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString("utf8")));
      child.stdout.resume();
      const code = await new Promise<number | null>((resolve) => child.on("close", resolve));
      expect(code).toBe(1);
      expect(stderr).toBe(
        "loupe: review_timeout: The review did not finish within its time limit. Reading the repository was stopped.\n",
      );
      expect(provider.requests).toHaveLength(0);
    },
    REVIEW_TIMEOUT_MS,
  );

  it(
    "ends the bundled Action the same way, its check run completed with the skip",
    async () => {
      const rssFile = path.join(scratch, "action-rss");
      const pr = github.addPullRequest({ owner: "octo", repo: "bomb", number: 1, headRef: bomb.headRef });
      const target = fakeGitHubTarget(github, "bomb");
      const { installation: _installation, ...payload } = pullRequestEvent("opened", target, pr) as Record<
        string,
        unknown
      >;
      const token = github.workflowToken("octo", "bomb");
      const run = await runActionEntry({
        eventName: "pull_request_target",
        payload,
        token,
        githubUrl: github.url,
        repository: "octo/bomb",
        inputs: {
          "openai-base-url": provider.baseURL,
          "openai-api-key": API_KEY,
          "review-model": "deepseek-v4-flash",
          "github-token": token,
          "timeout-ms": String(REVIEW_TIMEOUT_MS),
        },
        env: { NODE_OPTIONS: `--import=${PRELOAD}`, PEAK_RSS_FILE: rssFile },
        killAfterMs: REVIEW_TIMEOUT_MS,
      });
      expect(run.killed).toBe(false);
      expect(run.code).toBe(0);
      expect(run.summary).toContain("repository_too_large");
      expect(run.summary).toContain("lists more than 1000000 paths");
      const [checkRun] = github.checkRuns.filter((r) => r.repo === "bomb");
      expect(checkRun?.history.at(-1)).toMatchObject({ status: "completed" });
      expect(provider.requests).toHaveLength(0);
      expect(github.gitRequests.some((r) => r.url.includes("git-upload-pack"))).toBe(true);
      expect(peakRss(rssFile)).toBeLessThan(PEAK_RSS_BOUND_KIB);
    },
    REVIEW_TIMEOUT_MS + 30_000,
  );
});
