// `loupe review` on a change larger than one loop (700 files, more than one prompt lists), as a
// child process against the scripted provider: the same passes as the App (the pipeline's passes
// step), each a whole loop under the per-loop bounds (default settings: each pass reads its diff
// and answers in rounds of its own), sharing only the review's tokens and time.

import { afterAll, beforeAll, expect, it } from "@jest/globals";
import { finding, review, stopTurn, toolCallsTurn } from "../../support/chat-turns.ts";
import { createRepo, type FixtureRepo } from "../../support/git-fixture.ts";
import { runLoupe } from "../../support/loupe-cli.ts";
import { type ScriptedTurn, startScriptedProvider } from "../../support/scripted-provider.ts";

const DIRECTORIES = 14;
const FILES_PER_DIRECTORY = 50;

let repo: FixtureRepo;
const pathOf = (d: number, f: number) => `mod${String(d).padStart(2, "0")}/f${String(f).padStart(2, "0")}.ts`;

beforeAll(() => {
  repo = createRepo();
  for (let d = 0; d < DIRECTORIES; d++)
    for (let f = 0; f < FILES_PER_DIRECTORY; f++) repo.write(pathOf(d, f), `export const x = ${f};\n`);
  repo.commit("base");
  repo.branch("wide", "main");
  for (let d = 0; d < DIRECTORIES; d++)
    for (let f = 0; f < FILES_PER_DIRECTORY; f++) repo.write(pathOf(d, f), `export const x = ${f + 1};\n`);
  repo.commit("change 700 files");
  repo.checkout("main");
});
afterAll(() => repo.dispose());

/** One pass: a read of its diff and an answer, each billed `tokens` (default: the turns' own). */
function pass(n: number, tokens?: number): ScriptedTurn[] {
  const usage =
    tokens === undefined
      ? undefined
      : { prompt_tokens: tokens - 10, completion_tokens: 10, total_tokens: tokens };
  const diff = toolCallsTurn(
    [{ id: `d${n}`, name: "inspect_git_diff", arguments: {} }],
    usage ? { usage } : {},
  );
  const answer = stopTurn(
    review([
      finding({ title: `Pass ${n} problem`, path: pathOf(n, 0), line: 1, evidence: "export const x =" }),
    ]),
  );
  return [{ body: diff }, { body: usage ? { ...answer, usage } : answer }];
}

function reviewWide(provider: { baseURL: string }, extra: Record<string, string> = {}) {
  return runLoupe(["review", "--repo", repo.dir, "--base", "main", "--head", "wide"], {
    OPENAI_BASE_URL: provider.baseURL,
    OPENAI_API_KEY: "sk-cli-passes-0123456789abcdefghij",
    REVIEW_MODEL: "deepseek-v4-flash",
    REVIEW_VERIFY: "off",
    ...extra,
  });
}

it("reviews 700 files in three passes, each a whole loop that reads its diff and answers", async () => {
  const provider = await startScriptedProvider([...pass(1), ...pass(2), ...pass(3)]);
  try {
    const run = await reviewWide(provider);
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
    const bodies = provider.requests.map((r) => r.bodyText);
    expect(bodies).toHaveLength(6);
    for (const [i, n] of [0, 2, 4].entries()) {
      expect(bodies[n]).toMatch(
        new RegExp(`This is pass ${i + 1} of 3: it covers \\d+ of 700 changed files`),
      );
    }
    // Each pass is its own loop: its answer comes in its own second round, not a forced final answer.
    for (const i of [1, 3, 5]) expect(bodies[i]).not.toContain("The review budget is used up.");

    const out = JSON.parse(run.stdout);
    expect(out.termination_reason).toBe("final_review");
    expect(out.review.findings.map((f: { title: string }) => f.title)).toEqual([
      "Pass 1 problem",
      "Pass 2 problem",
      "Pass 3 problem",
    ]);
    const passes = out.coverage.passes as { files: number; ended: string | null }[];
    expect(passes.map((p) => p.ended)).toEqual(["final_review", "final_review", "final_review"]);
    expect(out.files_reviewed).toBe(700);
  } finally {
    await provider.stop();
  }
}, 120_000);

it("with tokens for two passes, runs the two it can pay for and lists the third's files as budget", async () => {
  // Each pass reads about 14 KB of diff: it needs some 21,000 tokens to read and answer, and
  // spends 20,000 here. 45,000 pay for two; the third's share could not read its diff.
  const provider = await startScriptedProvider([...pass(1, 10_000), ...pass(2, 10_000)]);
  try {
    const run = await reviewWide(provider, { REVIEW_MAX_TOKENS: "45000" });
    expect(run.code).toBe(0);
    expect(provider.requests).toHaveLength(4);
    const out = JSON.parse(run.stdout);
    expect(out.review.findings.map((f: { title: string }) => f.title)).toEqual([
      "Pass 1 problem",
      "Pass 2 problem",
    ]);
    const passes = out.coverage.passes as { files: number; ended: string | null }[];
    expect(passes.map((p) => p.ended)).toEqual(["final_review", "final_review", null]);
    const budget = (out.coverage.not_reviewed as { reason: string }[]).filter((f) => f.reason === "budget");
    expect(budget).toHaveLength(passes[2]!.files);
    expect(out.files_reviewed + budget.length).toBe(700);
  } finally {
    await provider.stop();
  }
}, 120_000);
