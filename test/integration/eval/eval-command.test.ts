// `loupe eval prepare|run|judge|report` end to end, as child processes: golden files in the
// benchmark's format, GitHub's pull-request API answered by a local server, the repositories served
// by a real `git http-backend`, the scripted provider as the reviewer and a second one as the judge.

import { execFileSync, spawn } from "node:child_process";
import { once } from "node:events";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import { finding, review, stopTurn } from "../../support/chat-turns.ts";
import { createRepo, type FixtureRepo } from "../../support/git-fixture.ts";
import { type GitHttpServer, startGitHttpServer } from "../../support/git-http-server.ts";
import { publishRepository } from "../../support/git-server-repos.ts";
import { type GitHubAnswerServer, startGitHubAnswerServer } from "../../support/github-answer-server.ts";
import { runLoupe } from "../../support/loupe-cli.ts";
import {
  type ScriptedProvider,
  type ScriptedTurn,
  startScriptedProvider,
} from "../../support/scripted-provider.ts";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../..");
const NODE = path.join(ROOT, "node_modules/.bin/node");

interface Fixture {
  readonly repo: FixtureRepo;
  readonly base: string;
  readonly head: string;
}

let git: GitHttpServer;
let github: GitHubAnswerServer;
let dir: string;
const fixtures = new Map<string, Fixture>();

function fixtureRepo(name: string, file: string): Fixture {
  const repo = createRepo();
  repo.write(file, "export function save(w) {\n  db.write(w);\n}\n");
  const base = repo.commit("base");
  repo.write(file, "export function save(w) {\n  db.write(w);\n  validate(w);\n}\n");
  const head = repo.commit("validate after write");
  publishRepository(git.root, `o/${name}`, repo);
  return { repo, base, head };
}

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "loupe-eval-"));
  git = await startGitHttpServer();
  fixtures.set("alpha", fixtureRepo("alpha", "src/service.ts"));
  fixtures.set("beta", fixtureRepo("beta", "lib/store.ts"));
  github = await startGitHubAnswerServer((request) => {
    const match = /^\/repos\/o\/(\w+)\/pulls\/(\d+)$/.exec(request.url.pathname);
    if (match === null || !fixtures.has(match[1]!)) return { status: 404, body: '{"message":"Not Found"}' };
    return pullAnswer(match[1]!, Number(match[2]));
  });
  const golden = path.join(dir, "golden");
  fs.mkdirSync(golden);
  const pulls = [
    {
      pr_title: "Validate the service",
      url: "https://github.com/o/alpha/pull/1",
      comments: [
        { comment: "validate(w) runs after db.write(w): invalid data is saved.", severity: "High" },
        { comment: "The write's error is not handled.", severity: "Low" },
      ],
    },
    {
      pr_title: "Validate the store",
      url: "https://github.com/o/beta/pull/2",
      comments: [{ comment: "The store validates after writing.", severity: "Medium" }],
    },
    // No golden comment: nothing to find, left out as the benchmark leaves it out.
    { pr_title: "Docs", url: "https://github.com/o/alpha/pull/3", comments: [] },
  ];
  fs.writeFileSync(path.join(golden, "fixture.json"), JSON.stringify(pulls, null, 2));
  fs.writeFileSync(path.join(dir, "variants.json"), JSON.stringify({ other: { REVIEW_MODEL: "model-b" } }));
});

afterAll(async () => {
  await github.stop();
  await git.stop();
  for (const fixture of fixtures.values()) fixture.repo.dispose();
  fs.rmSync(dir, { recursive: true, force: true });
});

function loupe(args: string[], env: Record<string, string> = {}) {
  return runLoupe(["eval", ...args], env);
}

const reviewer = (provider: ScriptedProvider) => ({
  OPENAI_BASE_URL: provider.baseURL,
  OPENAI_API_KEY: "sk-eval-reviewer-0123456789abcdef",
  REVIEW_MODEL: "model-a",
  REVIEW_VERIFY: "off",
  REVIEW_PRICE_INPUT: "1",
  REVIEW_PRICE_OUTPUT: "2",
});

const verdict = (match: boolean, confidence: number): ScriptedTurn => ({
  body: stopTurn({ reasoning: match ? "Same issue." : "Different issue.", match, confidence }),
});

describe("loupe eval, end to end", () => {
  it("prepares, runs two variants (resumably), judges with the benchmark's rules and reports", async () => {
    const manifest = path.join(dir, "manifest.json");
    const prepared = await loupe(["prepare", "--golden", path.join(dir, "golden"), "--out", manifest], {
      GITHUB_API_URL: githubRoot(),
      GITHUB_TOKEN: "ghp_eval0123456789",
    });
    const hash = goldenHash(path.join(dir, "golden"));
    expect(prepared.stdout).toBe(`2 pull requests, 3 golden comments (golden set ${hash}) → ${manifest}\n`);
    expect(prepared.code).toBe(0);
    expect(prepared.stderr.split("\n")).toEqual([
      `loupe eval: golden set ${hash}: 2 pull requests, 0 already resolved, 2 to ask 127.0.0.1:${new URL(githubRoot()).port}`,
      expect.stringMatching(
        /^loupe eval: \[1\/2\] https:\/\/github\.com\/o\/alpha\/pull\/1 → [0-9a-f]{12}\.\.[0-9a-f]{12}$/,
      ),
      expect.stringMatching(/^loupe eval: \[2\/2\] https:\/\/github\.com\/o\/beta\/pull\/2 → /),
      "",
    ]);
    expect(fs.existsSync(`${manifest}.progress.json`)).toBe(false);
    const written = JSON.parse(fs.readFileSync(manifest, "utf8"));
    expect(written.golden_set).toBe(hash);
    expect(written.pulls[0]).toMatchObject({
      key: "o__alpha__1",
      base: fixtures.get("alpha")!.base,
      head: fixtures.get("alpha")!.head,
      clone_url: git.url("o/alpha"),
    });
    expect(github.requests.map((r) => r.url.pathname)).toEqual([
      "/repos/o/alpha/pulls/1",
      "/repos/o/beta/pulls/2",
    ]);

    const results = path.join(dir, "results");
    const alphaFinding = (line: number, title: string) => finding({ path: "src/service.ts", line, title });
    const reviews = await startScriptedProvider([
      // Variant "one": a finding and a second wording of it on alpha; nothing on beta.
      {
        body: stopTurn(
          review([alphaFinding(3, "Validation after the write"), alphaFinding(2, "Saved before validated")]),
        ),
      },
      { body: stopTurn(review([])) },
      // Variant "other" (REVIEW_MODEL=model-b): one broad finding on alpha, one on beta.
      { body: stopTurn(review([alphaFinding(3, "Unvalidated and unhandled write")])) },
      { body: stopTurn(review([finding({ path: "lib/store.ts", line: 3 })])) },
    ]);
    try {
      const common = ["--manifest", manifest, "--out", results];
      const one = await loupe(["run", ...common, "--variant", "one"], reviewer(reviews));
      expect(one.stderr.split("\n")).toEqual([
        expect.stringMatching(/^loupe eval: one o__alpha__1 run 1: final_review, 2 findings, \d+ s$/),
        expect.stringMatching(/^loupe eval: one o__beta__2 run 1: final_review, 0 findings, \d+ s$/),
        "",
      ]);
      expect(one.code).toBe(0);
      const again = await loupe(["run", ...common, "--variant", "one"], reviewer(reviews));
      expect(again.stdout).toBe(`0 reviews written to ${path.join(results, "one")}\n`);
      const other = await loupe(
        ["run", ...common, "--variant", "other", "--variants", path.join(dir, "variants.json")],
        reviewer(reviews),
      );
      expect(other.code).toBe(0);
      expect(reviews.requests.map((r) => (r.body as { model: string }).model)).toEqual([
        "model-a",
        "model-a",
        "model-b",
        "model-b",
      ]);
    } finally {
      await reviews.stop();
    }
    const record = JSON.parse(fs.readFileSync(path.join(results, "one", "o__alpha__1--run1.json"), "utf8"));
    expect(record).toMatchObject({ stop_reason: "final_review", rounds: 1, tool_calls: 0, tokens: 220 });
    expect(record.findings).toHaveLength(2);
    expect(record.dollars).toBeCloseTo((200 * 1 + 20 * 2) / 1e6);

    // A judge that answers prose, then nothing: no pair is a match by default, so only the review
    // with no pair to ask (one/beta) is judged; the others are left for the next judge.
    const broken = await startScriptedProvider([{ body: stopTurn("They look alike to me.") }]);
    try {
      const judgeEnv = { JUDGE_BASE_URL: broken.baseURL, JUDGE_API_KEY: "sk-eval-judge-0123456789abcdef" };
      const failed = await loupe(["judge", "--results", results, "--manifest", manifest], {
        ...judgeEnv,
        JUDGE_MODEL: "judge-model",
        JUDGE_CONCURRENCY: "1",
      });
      expect(failed.code).toBe(1);
      expect(failed.stdout).toBe("1 reviews judged, 3 to judge again\n");
      expect(failed.stderr).toContain(
        "one/o__alpha__1 run 1: 4 pairs unanswered (the judge's answer has not JSON)",
      );
      expect(fs.existsSync(path.join(results, "one", "o__alpha__1--run1.judged.json"))).toBe(false);
    } finally {
      await broken.stop();
    }

    // Sorted: one/alpha (2 goldens × 2 candidates), one/beta (no candidate: no call),
    // other/alpha (2 × 1), other/beta (1 × 1); golden-major, candidate-minor.
    const judge = await startScriptedProvider([
      verdict(true, 0.9),
      verdict(true, 0.8),
      verdict(false, 0.9),
      verdict(false, 0.9),
      verdict(true, 0.9),
      verdict(true, 0.6),
      verdict(true, 0.95),
    ]);
    try {
      const judged = await loupe(["judge", "--results", results, "--manifest", manifest], {
        JUDGE_BASE_URL: judge.baseURL,
        JUDGE_API_KEY: "sk-eval-judge-0123456789abcdef",
        JUDGE_MODEL: "judge-model",
        // One pair at a time: the scripted judge answers in the order it is asked.
        JUDGE_CONCURRENCY: "1",
      });
      expect(judged.stdout).toBe("3 reviews judged\n");
      expect(judge.requests).toHaveLength(7);
      const asked = String(
        (judge.requests[0]!.body as { messages: { content: string }[] }).messages[1]!.content,
      );
      expect(asked).toContain("Determine if the candidate identifies the SAME underlying issue");
      expect(asked).toContain("validate(w) runs after db.write(w)");
      expect(asked).toContain("src/service.ts:3: Validation after the write");
      const again = await loupe(["judge", "--results", results, "--manifest", manifest], {
        JUDGE_BASE_URL: judge.baseURL,
        JUDGE_API_KEY: "sk-eval-judge-0123456789abcdef",
        JUDGE_MODEL: "judge-model",
        // One pair at a time: the scripted judge answers in the order it is asked.
        JUDGE_CONCURRENCY: "1",
      });
      expect(again.stdout).toBe("0 reviews judged\n");
      expect(judge.requests).toHaveLength(7);
    } finally {
      await judge.stop();
    }

    const report = await loupe(["report", "--results", results, "--compare", "other", "one", "--json"]);
    expect(report.code).toBe(0);
    const table = await loupe(["report", "--results", results, "--compare", "other", "one"]);
    expect(table.code).toBe(0);
    // The same figures for a person: seeded, so the intervals are exact; the minutes are wall time.
    const minutes = String.raw`\d+\.\d`;
    expect(table.stdout.split("\n")).toEqual([
      "variant  golden set    PRs  runs  precision          recall             F1                 tokens/PR      $/PR  min/PR",
      expect.stringMatching(
        `^one      ${hash}    2     1  0\\.50 \\[0\\.00, 0\\.50\\]  0\\.33 \\[0\\.00, 0\\.50\\]  0\\.40 \\[0\\.00, 0\\.50\\]        220  \\$0\\.00024 +${minutes}$`,
      ),
      expect.stringMatching(
        `^other    ${hash}    2     1  1\\.00 \\[1\\.00, 1\\.00\\]  0\\.67 \\[0\\.50, 1\\.00\\]`,
      ),
      "",
      "Scores are estimates [95 % interval over the pull requests]; compare them only on the same golden set.",
      "",
      `other minus one, paired on 2 pull requests (golden set ${hash}):`,
      "  precision        +0.50 [+0.50, +1.00]",
      "  recall           +0.33 [ 0.00, +1.00]  not significant",
      "  F1               +0.40 [+0.17, +1.00]",
      "  mean F1 of a PR  +0.58 [+0.17, +1.00]",
      "",
    ]);
    const figures = JSON.parse(report.stdout);
    expect(figures.variants.one.golden_set).toBe(hash);
    expect(figures.comparison.golden_set).toBe(hash);
    // Rounded for people and machines alike: four significant digits, not sixteen.
    expect(figures.variants.one.recall.estimate).toBe(0.3333);
    // one: the duplicate is a false positive, beta's golden missed → TP 1, FP 1, FN 2.
    expect(figures.variants.one.counts).toEqual({ tp: 1, fp: 1, fn: 2 });
    expect(figures.variants.one.precision.estimate).toBe(0.5);
    expect(figures.variants.one.recall.estimate).toBeCloseTo(1 / 3);
    // other: the broad candidate counts once, for its most confident golden → TP 2, FP 0, FN 1.
    expect(figures.variants.other.counts).toEqual({ tp: 2, fp: 0, fn: 1 });
    expect(figures.variants.other.f1.estimate).toBeCloseTo(0.8);
    expect(figures.variants.one.findings_per_pull.estimate).toBe(1);
    expect(figures.variants.one.tokens_per_pull.estimate).toBe(220);
    expect(figures.variants.one.dollars_per_pull.estimate).toBeCloseTo(240 / 1e6);
    expect(figures.comparison.per_pull.map((d: { difference: number }) => d.difference)).toEqual([
      expect.closeTo(2 / 3 - 0.5, 3),
      1,
    ]);
    expect(figures.comparison.mean_f1_difference.estimate).toBeCloseTo((1 / 6 + 1) / 2);
    // Seeded: the same files give the same report.
    expect(
      (await loupe(["report", "--results", results, "--compare", "other", "one", "--json"])).stdout,
    ).toBe(report.stdout);
  });

  it("report refuses to mix or compare scores of different golden sets", async () => {
    const results = path.join(dir, "mixed-results");
    const judged = (variant: string, key: string, golden: string | null) => {
      fs.mkdirSync(path.join(results, variant), { recursive: true });
      const run = { key, run: 1, counts: { tp: 1, fp: 0, fn: 0 }, findings: 1, tokens: 10, dollars: null };
      const file = path.join(results, variant, `${key}--run1.judged.json`);
      fs.writeFileSync(file, JSON.stringify({ ...run, seconds: 30, variant, golden_set: golden }));
    };
    judged("a", "o__r__1", "aaaaaaaaaaaa");
    judged("b", "o__r__1", "bbbbbbbbbbbb");
    const compared = await loupe(["report", "--results", results, "--compare", "a", "b"]);
    expect(compared.code).toBe(2);
    expect(compared.stderr).toBe(
      "loupe: a and b were judged against different golden sets (aaaaaaaaaaaa, bbbbbbbbbbbb): their scores cannot be compared\n",
    );
    // Alone, each is reported with its own golden set; a cost not known is said so.
    const alone = await loupe(["report", "--results", results]);
    expect(alone.stdout).toMatch(/^a +aaaaaaaaaaaa +1 +1 +1\.00 \[1\.00, 1\.00\].* 10 +unknown +0\.5$/m);
    expect(alone.stdout).toMatch(/^b +bbbbbbbbbbbb /m);
    // A file judged before the golden set was kept says "unknown", and does not mix with a known one.
    judged("a", "o__r__2", null);
    const mixed = await loupe(["report", "--results", results]);
    expect(mixed.code).toBe(2);
    expect(mixed.stderr).toContain(
      "variant a was judged against several golden sets (aaaaaaaaaaaa, unknown): delete its *.judged.json files and judge again",
    );
  });

  it("prepare stops at once on a refused connection or a spent rate limit, keeps what it resolved and resumes", async () => {
    const manifest = path.join(dir, "resumed.json");
    const args = ["prepare", "--golden", path.join(dir, "golden"), "--out", manifest];
    // A tokenless run: GitHub answers alpha, then its anonymous limit is spent.
    const limited = await startGitHubAnswerServer((request) => {
      if (request.url.pathname.endsWith("/alpha/pulls/1")) return pullAnswer("alpha", 1);
      const headers = { "x-ratelimit-remaining": "0", "x-ratelimit-reset": "1893456000" };
      return { status: 403, body: '{"message":"API rate limit exceeded"}', headers };
    });
    try {
      const first = await loupe(args, {
        GITHUB_API_URL: limited.octokit().request.endpoint.DEFAULTS.baseUrl,
      });
      expect(first.code).toBe(1);
      expect(first.stdout).toBe("");
      const host = new URL(limited.octokit().request.endpoint.DEFAULTS.baseUrl).host;
      expect(first.stderr).toContain(
        `loupe eval: https://github.com/o/beta/pull/2: ${host}'s rate limit is spent (it resets at 00:00 UTC): set GITHUB_TOKEN`,
      );
      expect(first.stderr).toContain(
        `loupe eval: stopped at 2 of 2; the 1 resolved are kept in ${manifest}.progress.json: run the same command again to resume\n`,
      );
      // No silent retry: one request a pull request.
      expect(limited.requests).toHaveLength(2);
    } finally {
      await limited.stop();
    }
    expect(fs.existsSync(manifest)).toBe(false);

    // No network: a port that refuses connections. Alpha is not asked again; beta fails at once.
    const closed = await refusingAddress();
    const refused = await loupe(args, { GITHUB_API_URL: `http://${closed}` });
    expect(refused.code).toBe(1);
    expect(refused.stderr.split("\n")).toEqual([
      expect.stringContaining(`2 pull requests, 1 already resolved, 1 to ask ${closed}`),
      `loupe eval: https://github.com/o/beta/pull/2: ${closed} refused the connection: check the network; behind a proxy, set HTTPS_PROXY and NODE_USE_ENV_PROXY=1; for GitHub Enterprise, set GITHUB_API_URL`,
      `loupe eval: stopped at 1 of 1; the 1 resolved are kept in ${manifest}.progress.json: run the same command again to resume`,
      "",
    ]);

    // Back online: only beta is asked, and the manifest is whole.
    const before = github.requests.length;
    const resumed = await loupe(args, { GITHUB_API_URL: githubRoot() });
    expect(resumed.code).toBe(0);
    expect(github.requests.slice(before).map((r) => r.url.pathname)).toEqual(["/repos/o/beta/pulls/2"]);
    const written = JSON.parse(fs.readFileSync(manifest, "utf8"));
    expect(written.pulls.map((p: { key: string; head: string }) => [p.key, p.head])).toEqual([
      ["o__alpha__1", fixtures.get("alpha")!.head],
      ["o__beta__2", fixtures.get("beta")!.head],
    ]);
    expect(fs.existsSync(`${manifest}.progress.json`)).toBe(false);
  });

  it("prepare leaves a progress file it cannot read untouched, and says which", async () => {
    const manifest = path.join(dir, "torn.json");
    fs.writeFileSync(`${manifest}.progress.json`, '{"version": 1, "pulls": [');
    const before = github.requests.length;
    const torn = await loupe(["prepare", "--golden", path.join(dir, "golden"), "--out", manifest], {
      GITHUB_API_URL: githubRoot(),
    });
    expect(torn.code).toBe(2);
    expect(torn.stderr).toBe(`loupe: ${manifest}.progress.json is not JSON (move it away to start afresh)\n`);
    expect(fs.readFileSync(`${manifest}.progress.json`, "utf8")).toBe('{"version": 1, "pulls": [');
    expect(github.requests).toHaveLength(before);
  });

  it("writes no result for a review that fails, exits 1, and leaves it to the next run", async () => {
    const alpha = fixtures.get("alpha")!;
    const pull = { key: "o__gone__9", url: "https://github.com/o/gone/pull/9", title: "Gone" };
    const manifest = path.join(dir, "gone.json");
    const golden = [{ comment: "Anything.", severity: null }];
    const entry = { ...pull, clone_url: git.url("o/gone"), base: alpha.base, head: alpha.head, golden };
    fs.writeFileSync(manifest, JSON.stringify({ version: 1, pulls: [entry] }));
    const reviews = await startScriptedProvider([]);
    try {
      const out = path.join(dir, "gone-results");
      const run = await loupe(
        ["run", "--manifest", manifest, "--variant", "v", "--out", out],
        reviewer(reviews),
      );
      expect(run.code).toBe(1);
      expect(run.stderr).toMatch(/^loupe eval: https:\/\/github\.com\/o\/gone\/pull\/9 run 1 failed: /);
      expect(run.stdout).toContain("0 reviews written");
      expect(fs.existsSync(path.join(out, "v", "o__gone__9--run1.json"))).toBe(false);
      expect(reviews.requests).toHaveLength(0);
    } finally {
      await reviews.stop();
    }
  });

  it("stops on an interrupt, without a result for the review it cut short", async () => {
    const reviews = await startScriptedProvider([{ fault: "hang" }]);
    try {
      const out = path.join(dir, "interrupted-results");
      const alpha = fixtures.get("alpha")!;
      const manifest = path.join(dir, "interrupted.json");
      const pull = {
        key: "o__alpha__1",
        url: "https://github.com/o/alpha/pull/1",
        title: "Alpha",
        golden: [],
      };
      const entry = { ...pull, clone_url: git.url("o/alpha"), base: alpha.base, head: alpha.head };
      fs.writeFileSync(manifest, JSON.stringify({ version: 1, pulls: [entry] }));
      const args = ["run", "--manifest", manifest, "--variant", "v", "--out", out];
      const child = spawn(NODE, ["src/cli.ts", "eval", ...args], {
        cwd: ROOT,
        env: { PATH: process.env.PATH ?? "", ...reviewer(reviews) },
      });
      let stdout = "";
      child.stdout.on("data", (chunk: Buffer) => {
        stdout += chunk.toString("utf8");
      });
      const exited = once(child, "exit");
      while (reviews.requests.length === 0) await new Promise((resolve) => setTimeout(resolve, 20));
      child.kill("SIGINT");
      const [code] = await exited;
      expect(code).toBe(1);
      expect(stdout).toBe(`0 reviews written to ${path.join(out, "v")}, interrupted\n`);
      expect(reviews.requests).toHaveLength(1);
      expect(fs.existsSync(path.join(out, "v", "o__alpha__1--run1.json"))).toBe(false);
    } finally {
      await reviews.stop();
    }
  });

  it("exits 2 on a missing step, an unknown option, or a judge without its settings", async () => {
    expect((await loupe([])).code).toBe(2);
    expect((await loupe(["report", "--results", dir, "--force"])).stderr).toBe(
      'loupe: unknown option "--force" for loupe eval report\n',
    );
    // The judge's settings are read first: no manifest is needed to be told they are missing.
    const judge = await loupe(["judge", "--results", dir, "--manifest", path.join(dir, "none.json")]);
    expect(judge.code).toBe(2);
    expect(judge.stderr).toContain("JUDGE_API_KEY");
    expect(judge.stderr).not.toContain("OPENAI_");
  });
});

/** GitHub's answer for pull request `number` of fixture repository `name`. */
function pullAnswer(name: string, number: number) {
  const fixture = fixtures.get(name)!;
  const pull = {
    number,
    title: `PR of ${name}`,
    base: { sha: fixture.base, repo: { clone_url: git.url(`o/${name}`) } },
    head: { sha: fixture.head },
  };
  return { body: JSON.stringify(pull) };
}

/** `127.0.0.1:<port>` where nothing listens any more: a connection there is refused. */
async function refusingAddress(): Promise<string> {
  const server = net.createServer().listen(0, "127.0.0.1");
  await once(server, "listening");
  const { port } = server.address() as net.AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return `127.0.0.1:${port}`;
}

/** The golden set's hash as a person checks it, by coreutils' sha256sum. */
function goldenHash(golden: string): string {
  return execFileSync("sh", ["-c", "LC_ALL=C sha256sum *.json | sha256sum | cut -c1-12"], {
    cwd: golden,
    encoding: "utf8",
  }).trim();
}

describe("loupe eval prepare's GitHub address", () => {
  it("names the variable and the value when GITHUB_API_URL is not a URL", async () => {
    const manifest = path.join(dir, "bad-url.json");
    const run = await loupe(["prepare", "--golden", path.join(dir, "golden"), "--out", manifest], {
      GITHUB_API_URL: "api.github.com",
    });
    expect(run.code).toBe(2);
    expect(run.stderr).toBe(
      'loupe: GITHUB_API_URL must be an absolute http(s) URL (found "api.github.com")\n',
    );
  });
});

/** The answer server's root, as its Octokit is configured with it. */
function githubRoot(): string {
  return github.octokit().request.endpoint.DEFAULTS.baseUrl;
}
